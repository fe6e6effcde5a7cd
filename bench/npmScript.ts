import { readFileSync } from "node:fs"

const partsOf = (script: string) => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>
  }
  const parts = (pkg.scripts[script] ?? "").split(" ").filter((part) => part !== "")
  const envCount = parts.findIndex((part) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(part))
  const [command, ...args] = parts.slice(envCount)
  if (command !== "node") throw new Error(`npm script "${script}" does not start node`)
  return {
    env: Object.fromEntries(
      parts.slice(0, envCount).map((part) => [part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)])
    ),
    args
  }
}

/**
 * The node arguments of an npm script of this package (`"http": "node --flag --import tsx x.ts"` ->
 * ["--flag", "--import", "tsx", "x.ts"]), so a bench starts a host exactly as `npm run <name>` does,
 * node flags included, while measuring the node process itself rather than npm's.
 */
export const nodeArgsOf = (script: string): Array<string> => partsOf(script).args

/** The environment variables an npm script sets before node (`"start": "A=1 node ..."` -> { A: "1" }). */
export const nodeEnvOf = (script: string): Record<string, string> => partsOf(script).env
