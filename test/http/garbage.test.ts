import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { claim, connectSandbox, signUp } from "../support/flows.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const bodies: ReadonlyArray<string> = [
  "",
  "null",
  "[]",
  "[1,2]",
  '"text"',
  "42",
  "true",
  "{",
  '{"a":',
  "{}",
  '{"accountIds":null}',
  '{"accountIds":[null]}',
  '{"accountIds":["x"],"content":{"a":1}}',
  '{"accountIds":["x"],"poll":[]}',
  '{"accountIds":["x"],"poll":{"options":"a","durationMinutes":"x"}}',
  '{"accountIds":["x"],"cover":{"mediaId":1,"offsetMs":2}}',
  '{"accountIds":["x"],"scheduledFor":12}',
  '{"email":["a"]}',
  '{"postIds":"x"}',
  '{"scheduledFor":null}',
  JSON.stringify({ accountIds: ["x"], content: "a".repeat(200_000) }),
  "\u0000\u0001",
  '{"__proto__":{"x":1}}',
  JSON.stringify({ accountIds: ["x"], content: "nul\u0000inside" }),
  JSON.stringify({ accountIds: ["x"], content: "x", mediaIds: ["med_\u0000"] }),
  JSON.stringify({ accountIds: ["x\u0000"], content: "x", thread: ["a\u0000"] }),
  JSON.stringify({ email: "a\u0000@herald-customer.org", agentName: "x\u0000" }),
  JSON.stringify({ postIds: ["post_\u0000"] }),
  JSON.stringify({ name: "n\u0000" })
]

describe("garbage never gets a 500", () => {
  it("every POST endpoint answers a 4xx envelope to every malformed body, with a key and with a session", async () => {
    const { key, email } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const post = (await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "x" } })).body
      .post.id
    const { cookie, csrf } = await claim(host, email)
    const paths = [
      "/signup",
      "/claim-link",
      "/posts",
      `/posts/${post}/approve`,
      `/posts/${post}/reject`,
      `/posts/${post}/cancel`,
      `/posts/${post}/reschedule`,
      `/posts/${post}/retry`,
      `/posts/${post}/first-comment/retry`,
      "/posts/bulk-approve",
      "/posts/bulk-reject",
      "/keys",
      "/keys/key_x/revoke",
      "/media",
      "/posts/%00/cancel",
      "/posts/../../etc/passwd/cancel"
    ]
    for (const path of paths) {
      for (const raw of bodies) {
        for (const auth of [{ key }, { cookie, headers: { "x-csrf-token": csrf } }]) {
          const reply = await call(host, "POST", path, {
            ...auth,
            raw,
            headers: { ...("headers" in auth ? auth.headers : {}), "content-type": "application/json" }
          })
          expect(reply.status, `${path} ${raw.slice(0, 40)}`).toBeLessThan(500)
          expect(
            typeof reply.body?.error?.code === "string" || reply.status < 300,
            `${path} ${raw.slice(0, 40)}: ${JSON.stringify(reply.body).slice(0, 200)}`
          ).toBe(true)
        }
      }
    }
  }, 120_000)

  it("query and path parameters out of range are 4xx envelopes", async () => {
    const { key } = await signUp(host)
    for (const path of [
      "/posts?limit=abc",
      "/posts?limit=-1",
      "/posts?limit=1e9",
      "/posts?cursor=%%%",
      "/posts?cursor=" + "A".repeat(5000),
      "/posts?status=nope",
      "/posts/" + "x".repeat(3000),
      "/media/%ff",
      "/media/med_x/preview",
      "/connect/%00",
      "/connect/" + "y".repeat(500)
    ]) {
      const reply = await call(host, "GET", path, { key })
      expect(reply.status, path).toBeGreaterThanOrEqual(400)
      expect(reply.status, path).toBeLessThan(500)
      expect(typeof reply.body.error.code, path).toBe("string")
    }
  })
})
