// A checkout's `npm install` makes the PGlite template (adapters/pglite/template.ts); installed as a dependency
// (no sources, and Node strips no types under node_modules) Herald leaves it to the first new data dir.
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const template = fileURLToPath(new URL("../adapters/pglite/template.ts", import.meta.url))
if (existsSync(template) && !template.split(/[\\/]/).includes("node_modules"))
  try {
    execFileSync(process.execPath, [template], { stdio: "inherit" })
  } catch {
    // Never fails the install: the first new data dir makes the template instead.
    console.log("No PGlite template made (the first start makes one).")
  }
