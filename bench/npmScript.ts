import { readFileSync } from "node:fs"

/**
 * The node arguments of an npm script of this package (`"http": "node --flag --import tsx x.ts"` ->
 * ["--flag", "--import", "tsx", "x.ts"]), so a bench starts a host exactly as `npm run <name>` does,
 * node flags included, while measuring the node process itself rather than npm's.
 */
export const nodeArgsOf = (script: string): Array<string> => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> }
  const [command, ...args] = (pkg.scripts[script] ?? "").split(" ").filter((part) => part !== "")
  if (command !== "node") throw new Error(`npm script "${script}" does not start node`)
  return args
}
