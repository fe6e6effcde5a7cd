import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"

const dirs: Array<string> = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

/** Runs scripts/check-layering.mjs on a small tree of files. */
const check = (files: Record<string, string>) => {
  const root = mkdtempSync(join(tmpdir(), "layering-"))
  dirs.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const run = spawnSync(process.execPath, ["scripts/check-layering.mjs"], {
    env: { ...process.env, LAYERING_ROOT: root },
    encoding: "utf8"
  })
  return { ok: run.status === 0, output: run.stdout + run.stderr }
}

describe("the layering check", () => {
  it("passes a tree that keeps the rule", () => {
    const result = check({
      "domain/post.ts": `import { Schema } from "effect"\nimport { x } from "./other.ts"`,
      "domain/networkRules.ts": `import twitterText from "twitter-text"`,
      "application/usecases/a.ts": `import { Effect } from "effect"\nimport { y } from "../../domain/post.ts"`,
      "adapters/postgres/A.ts": `import { PgClient } from "@effect/sql-pg"\nimport { z } from "../../application/ports/P.ts"`,
      "hosts/http/main.ts": `import { a } from "../../adapters/postgres/A.ts"`,
      // A family's networks share its folder (Meta's Graph helpers).
      "adapters/networks/instagram/I.ts": `import { g } from "../meta/graph.ts"\nimport { h } from "../shared/http.ts"`
    })
    expect(result.ok, result.output).toBe(true)
  })

  it.each([
    ["domain/a.ts", `import { readFile } from "node:fs/promises"`, "domain imports only effect"],
    ["domain/b.ts", `import { HttpRouter } from "effect/http"`, "no HTTP or SQL in domain"],
    ["domain/c.ts", `import { z } from "zod"`, "domain imports only effect"],
    ["domain/d.ts", `import extract from "twitter-text/dist/extractUrls.js"`, "domain imports only effect"],
    ["application/c.ts", `import { PgClient } from "@effect/sql-pg"`, "application imports only effect"],
    ["application/d.ts", `import { SqlClient } from "effect/sql"`, "no HTTP or SQL in application"],
    ["application/e.ts", `import { x } from "../adapters/memory/M.ts"`, "application imports only domain"],
    ["adapters/s3/S.ts", `import { x } from "../postgres/P.ts"`, "adapter s3 imports adapter postgres"],
    ["adapters/s3/T.ts", `import { x } from "../../hosts/http/server.ts"`, "adapters never import hosts"],
    [
      "adapters/networks/x/X.ts",
      `import { x } from "../bluesky/B.ts"`,
      "adapter networks/x imports adapter networks/bluesky"
    ],
    [
      "adapters/networks/x/Y.ts",
      `import { g } from "../meta/graph.ts"`,
      "adapter networks/x imports adapter networks/meta"
    ],
    ["domain/g.ts", `export const size = (b: Uint8Array) => Buffer.byteLength(b)`, "uses Node's Buffer"],
    ["application/h.ts", `export const env = () => process.env.X`, "uses Node's process"]
  ])("refuses %s importing %s", (path, source, why) => {
    const result = check({ [path]: source })
    expect(result.ok).toBe(false)
    expect(result.output).toContain(why)
  })
})
