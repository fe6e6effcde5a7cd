import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { get } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { generate } from "orval"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectSandbox, uniqueEmail } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"

/*
 * A second generator beside openapi-typescript (test/http/typedClient.test.ts): orval's fetch client,
 * made from the served document into a temporary directory, type-checked by the project's tsc in
 * strict mode, then used against a real host. Its names come from the document's operation ids and
 * schema identifiers: a schema the document left unnamed would show up as a name orval made up.
 */

const require = createRequire(import.meta.url)
const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc")

let host: HttpHost
let dir: string
let source: string
let document: { components: { schemas: Record<string, unknown> } }
let client: Record<string, (...args: Array<any>) => Promise<{ status: number; data: any }>>

beforeAll(async () => {
  host = await startHttpHost()
  dir = mkdtempSync(join(tmpdir(), "herald-orval-"))
  // Read on a connection of its own: a pooled one would sit idle through the generation, and the host
  // may close it (keep-alive timeout) just as the first call takes it again (ECONNRESET).
  const served = await new Promise<string>((resolve, reject) =>
    get(`${host.base}/openapi.json`, { agent: false }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve(text))
    }).on("error", reject)
  )
  document = JSON.parse(served)
  writeFileSync(join(dir, "openapi.json"), served)
  await generate({
    input: { target: join(dir, "openapi.json") },
    output: {
      target: join(dir, "herald.ts"),
      client: "fetch",
      mode: "single",
      baseUrl: host.origin
    }
  })
  source = readFileSync(join(dir, "herald.ts"), "utf8")
  client = await import(pathToFileURL(join(dir, "herald.ts")).href)
}, 120_000)
afterAll(async () => {
  await host?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe("a client orval generates from the served document", () => {
  it("names every operation and schema after the document, not after a position", () => {
    const functions = [...source.matchAll(/^export const (\w+) = async/gm)].map((m) => m[1])
    expect(functions).toEqual(expect.arrayContaining(["signupSignup", "postsCreate", "postsGet", "webhooksCreate"]))
    const types = [...source.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!)
    expect(types).toEqual(expect.arrayContaining(["CreatePostRequest", "Post", "PostEnvelope", "NotFoundError"]))
    // What a generator falls back to for a schema the document left unnamed: a name from its position
    // (`...Item`, `...200...`, `...AnyOf`). The upload's two forms are still positional (MediaUploadBodyOne
    // and ...Two): the JSON one is documented by a transform of the operation (mediaApi.ts), not a named schema.
    const named = new Set(Object.keys(document.components.schemas))
    const madeUp = types.filter(
      (t) => !named.has(t) && /Item$|AnyOf|OneOf|AllOf|[A-Za-z]\d{3}[A-Z]|\d+$/.test(t) && !/Response\d{3}$/.test(t)
    )
    expect(madeUp).toEqual([])
    expect(types.filter((t) => /Body(One|Two)$/.test(t))).toEqual(["MediaUploadBodyOne", "MediaUploadBodyTwo"])
  })

  it("signs up, creates a post and reads it back through the generated functions", async () => {
    const signedUp = await client.signupSignup!({ email: uniqueEmail(), agentName: "orval client" })
    expect(signedUp.status).toBe(201)
    const apiKey = signedUp.data.apiKey as string
    const auth = { headers: { authorization: `Bearer ${apiKey}` } }
    const accountId = await connectSandbox(host, apiKey)
    const created = await client.postsCreate!({ accountIds: [accountId], content: "Through orval's client" }, auth)
    expect(created.status).toBe(201)
    const read = await client.postsGet!(created.data.post.id, auth)
    expect(read.status).toBe(200)
    expect(read.data.post).toMatchObject({ content: "Through orval's client", status: "needs_approval" })
    const missing = await client.postsGet!("post_missing", auth)
    expect(missing.status).toBe(404)
    expect(missing.data.error.code).toBe("post_not_found")
  })

  it("type-checks under strict settings", () => {
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          target: "ES2024",
          module: "NodeNext",
          lib: ["ES2024", "DOM"],
          types: [],
          noEmit: true
        },
        files: ["herald.ts"]
      })
    )
    // Throws with tsc's diagnostics when the generated code does not compile.
    execFileSync(tsc, ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" })
  }, 60_000)
})
