// `npm test`'s OpenAPI step: the document the HTTP host serves (OpenApi.fromApi over the contract, as
// HttpApiBuilder serves it at /api/v1/openapi.json), linted by Redocly CLI with its recommended rules.
// The exit code is the linter's: an error (an operation without a summary, say) fails the run.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { OpenApi } from "effect/http-api"
import { HeraldApi } from "../hosts/http/api.ts"

const dir = mkdtempSync(join(tmpdir(), "herald-openapi-"))
const file = join(dir, "openapi.json")
writeFileSync(file, JSON.stringify(OpenApi.fromApi(HeraldApi), null, 2))
const cli = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js")
const lint = spawnSync(process.execPath, [cli, "lint", file, "--extends=recommended", "--format=stylish"], {
  stdio: "inherit",
  // Tests never reach a network: no usage report, no update check.
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
})
rmSync(dir, { recursive: true, force: true })
process.exit(lint.status ?? 1)
