import { readFileSync, writeFileSync } from "node:fs"
import createClient from "openapi-fetch"
import openapiTS from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { paths } from "../support/generated/heraldApi.ts"
import { contractOf } from "../support/contract.ts"
import { connectSandbox, uniqueEmail } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"

/*
 * A client generated from the served OpenAPI document by openapi-typescript (types) and
 * openapi-fetch (calls). The types are committed; this test regenerates them from the document and
 * fails when they differ (UPDATE_API_TYPES=1 rewrites them), then calls the API through them.
 */

const typesFile = new URL("../support/generated/heraldApi.ts", import.meta.url)

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

describe("a client generated from the OpenAPI document", () => {
  it("has the committed types: what openapi-typescript makes of the served document", async () => {
    const document = (await (await fetch(`${host.base}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0]
    const generated = await openapiTS(document)
    if (process.env.UPDATE_API_TYPES === "1") writeFileSync(typesFile, generated)
    expect(generated, "the API changed: run UPDATE_API_TYPES=1 npx vitest run test/http/typedClient.test.ts").toBe(
      readFileSync(typesFile, "utf8")
    )
  })

  it("signs up, creates a post and reads it back through the typed client", async () => {
    const client = createClient<paths>({ baseUrl: host.origin })
    const signUp = await client.POST("/api/v1/signup", { body: { email: uniqueEmail(), agentName: "Typed client" } })
    expect(signUp.response.status).toBe(201)
    const apiKey = signUp.data?.apiKey
    expect(apiKey).toMatch(/^hrld_/)
    const headers = { authorization: `Bearer ${apiKey}` }
    const accountId = await connectSandbox(host, apiKey!)

    const created = await client.POST("/api/v1/posts", {
      headers,
      body: { accountIds: [accountId], content: "Through the generated client" }
    })
    expect(created.response.status).toBe(201)
    const post = created.data && "post" in created.data ? created.data.post : undefined
    expect(post?.status).toBe("needs_approval")

    const read = await client.GET("/api/v1/posts/{id}", { headers, params: { path: { id: post!.id } } })
    expect(read.data?.post.content).toBe("Through the generated client")
    expect(read.data?.post.targets.map((t) => t.accountId)).toEqual([accountId])

    const missing = await client.GET("/api/v1/posts/{id}", { headers, params: { path: { id: "post_missing" } } })
    expect(missing.response.status).toBe(404)
    expect(missing.error?.error.code).toBe("post_not_found")
  })

  it("the suites' response check refuses a status or a body the document does not give", async () => {
    const contract = await contractOf(host.origin)
    expect(() => contract.check("GET", `${host.base}/posts/post_1`, 418, "application/json", {})).toThrow(
      /does not list/
    )
    expect(() =>
      contract.check("GET", `${host.base}/posts/post_1`, 200, "application/json", { post: { id: 1 } })
    ).toThrow(/does not match/)
    expect(() =>
      contract.check("GET", `${host.base}/posts/post_1`, 404, "application/json", { error: { code: "no_such_code" } })
    ).toThrow(/does not match/)
    expect(() => contract.check("GET", `${host.base}/no-such-route`, 404, "application/json", {})).not.toThrow()
  })
})
