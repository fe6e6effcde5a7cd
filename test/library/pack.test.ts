import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = resolve(import.meta.dirname, "../..")
// npm, tsc and Node 24 as `npm test` finds them (node_modules/.bin first).
const env = { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH}` }
const work = mkdtempSync(join(tmpdir(), "herald-embedder-"))
const project = join(work, "project")

/** The README's embedding example: the first TypeScript block of its "Embedding the library" section. */
const readmeExample = () => {
  const readme = readFileSync(join(root, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## Embedding the library"))
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!
}

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("Herald as a library", () => {
  it("packs, installs into an empty project without Herald's set-up, and runs the README's example", async () => {
    await run("npm", ["run", "build"], { cwd: root, env })
    expect(existsSync(join(root, "dist/index.js")) && existsSync(join(root, "dist/index.d.ts"))).toBe(true)

    const { stdout: packed } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: root, env })
    const [{ filename, files }] = JSON.parse(packed) as Array<{ filename: string; files: Array<{ path: string }> }>
    const paths = files.map((f) => f.path)
    // Compiled code and declarations only: no sources Node would refuse to strip under node_modules.
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([])
    expect(paths).toContain("dist/hosts/http/pages/assets/app.js")

    mkdirSync(project)
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "embedder", private: true, type: "module" }))
    await run("npm", ["install", join(work, filename), "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: project,
      env
    })
    const installed = join(project, "node_modules/herald")
    // npm versions that run a dependency's install scripts run this one: it must do nothing there.
    const { stdout: setUp } = await run(
      process.execPath,
      [
        join(
          installed,
          JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).scripts.postinstall.split(" ")[1]
        )
      ],
      { cwd: installed, env }
    )
    expect(setUp).toBe("")
    expect(existsSync(join(project, "node_modules/.cache/herald"))).toBe(false)

    writeFileSync(join(project, "example.ts"), readmeExample())
    // The declarations type the example: no service left unprovided, no error left untyped.
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          target: "ES2024",
          lib: ["ES2024", "DOM"],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true
        },
        files: ["example.ts"]
      })
    )
    await run(join(root, "node_modules/.bin/tsc"), ["-p", "."], { cwd: project, env }).catch((e) => {
      throw new Error(`the README's example does not type-check against the package:\n${e.stdout}`)
    })
    const { stdout } = await run(process.execPath, ["example.ts"], { cwd: project, env })
    const answer = JSON.parse(stdout.trim().split("\n").at(-1)!)
    expect(answer.kind).toBe("dryRun")
    expect(answer.body.valid).toBe(true)
    expect(answer.body.targets.map((t: { platform: string }) => t.platform)).toEqual(["sandbox"])
    // The example's data dir, made by the installed package.
    expect(existsSync(join(project, "herald-data/pg/PG_VERSION"))).toBe(true)
  }, 600_000)
})
