// `npm run build`: the library as JavaScript with type declarations in dist/, with the web pages' assets beside their module.
import { execFileSync } from "node:child_process"
import { cpSync, rmSync } from "node:fs"

const root = new URL("..", import.meta.url)
rmSync(new URL("dist", root), { recursive: true, force: true })
// npm run puts node_modules/.bin (tsc) on PATH.
execFileSync("tsc", ["-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" })
cpSync(new URL("hosts/http/pages/assets", root), new URL("dist/hosts/http/pages/assets", root), { recursive: true })
