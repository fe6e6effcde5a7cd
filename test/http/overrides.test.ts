import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addAccount, connectSandbox, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const code = (reply: { body: any }) => reply.body?.error?.code
const LONG = `${"The long version, for LinkedIn and the sandbox. ".repeat(8)}End.`

/** A workspace with a sandbox, an X and a LinkedIn account. */
const setUp = async () => {
  const { key, workspaceId } = await signUp(host)
  const sandbox = await connectSandbox(host, key)
  const x = await addAccount(host, workspaceId, "x")
  const linkedin = await addAccount(host, workspaceId, "linkedin")
  return { key, workspaceId, sandbox, x, linkedin }
}

describe("per-network content (overrides)", () => {
  it("a long text with a short one for X is created; the post shows its overrides, as stored, on create and read", async () => {
    const { key, x, linkedin } = await setUp()
    const overrides = {
      x: { content: "Short for X", thread: ["X only reply"] },
      linkedin: { firstComment: "https://example.org/long" }
    }
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [x, linkedin], content: LONG, overrides }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.post).toMatchObject({ content: LONG, thread: [], firstComment: null, overrides })
    // Each target's first comment follows its own final content.
    expect(reply.body.post.targets.map((t: any) => [t.platform, t.firstComment?.status ?? null])).toEqual([
      ["x", null],
      ["linkedin", "pending"]
    ])
    const read = await call(host, "GET", `/posts/${reply.body.post.id}`, { key })
    expect(read.body.post.overrides).toEqual(overrides)
    const plain = await call(host, "POST", "/posts", { key, body: { accountIds: [linkedin], content: "No overrides" } })
    expect(plain.body.post.overrides).toEqual({})
  })

  it("the dry run lists each target's final content, its length by its network's counting, and its warnings", async () => {
    const { key, x, linkedin, sandbox } = await setUp()
    const reply = await call(host, "POST", "/posts", {
      key,
      body: {
        accountIds: [x, linkedin, sandbox],
        content: LONG,
        dryRun: true,
        overrides: { x: { content: "Short 🚀 https://example.org/a-rather-long-path-here" } }
      }
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ dryRun: true, valid: true })
    expect(reply.body.targets).toEqual([
      expect.objectContaining({
        accountId: x,
        platform: "x",
        content: "Short 🚀 https://example.org/a-rather-long-path-here",
        length: { used: 32, limit: 280 },
        warnings: []
      }),
      expect.objectContaining({
        accountId: linkedin,
        platform: "linkedin",
        content: LONG,
        length: { used: LONG.length, limit: 3000 },
        warnings: []
      }),
      expect.objectContaining({
        accountId: sandbox,
        platform: "sandbox",
        content: LONG,
        mediaIds: [],
        thread: [],
        firstComment: null
      })
    ])
    expect(reply.body.wouldPost.overrides).toEqual({
      x: { content: "Short 🚀 https://example.org/a-rather-long-path-here" }
    })
  })

  it("each target is checked on its own final content: X refuses the long text unless its override is short, naming the field", async () => {
    const { key, x, linkedin } = await setUp()
    const noOverride = await call(host, "POST", "/posts", { key, body: { accountIds: [x, linkedin], content: LONG } })
    expect(noOverride.status).toBe(400)
    expect(noOverride.body.error.details).toMatchObject({ fields: ["content"], platform: "x", limit: 280 })
    const tooLong = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [x, linkedin], content: "ok", overrides: { x: { content: "y".repeat(281) } } }
    })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.details).toMatchObject({ fields: ["overrides.x.content"], platform: "x", limit: 280 })
    const thread = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [x, linkedin], content: "ok", overrides: { linkedin: { thread: ["more"] } } }
    })
    expect(code(thread)).toBe("thread_unsupported")
    expect(thread.body.error.details.accountIds).toEqual([linkedin])
  })

  it("malformed overrides are 400 validation_failed naming each field", async () => {
    const { key, x } = await setUp()
    const cases: Array<[unknown, ReadonlyArray<string>]> = [
      [{ myspace: { content: "hi" } }, ["overrides.myspace"]],
      [{ x: { content: 5 } }, ["overrides.x.content"]],
      [{ x: { text: "hi" } }, ["overrides.x.text"]],
      [{ x: { thread: ["ok", " "] } }, ["overrides.x.thread"]],
      [{ x: { mediaIds: ["not an id"] } }, ["overrides.x.mediaIds"]],
      [{ x: { content: "esc \u001b[2J" } }, ["overrides.x.content"]],
      [{ linkedin: { firstComment: "nul \u0000" } }, ["overrides.linkedin.firstComment"]],
      [{ x: { thread: ["fine", "esc \u001b[2J"] } }, ["overrides.x.thread[1]"]],
      ["short", ["overrides"]]
    ]
    for (const [overrides, fields] of cases) {
      const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [x], content: "hi", overrides } })
      expect(reply.status, JSON.stringify(overrides)).toBe(400)
      expect(code(reply)).toBe("validation_failed")
      for (const field of fields) expect(reply.body.error.details.fields, JSON.stringify(overrides)).toContain(field)
    }
  })

  it("an override for a network not targeted is a warning and is not kept; a target left with nothing to post is refused", async () => {
    const { key, x } = await setUp()
    const overrides = { x: { content: "For X" }, linkedin: { content: "Nobody reads this" } }
    const dry = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [x], content: "Base", overrides, dryRun: true }
    })
    expect(dry.body.warnings).toContain("overrides.linkedin is ignored: no LinkedIn account is targeted.")
    const created = await call(host, "POST", "/posts", { key, body: { accountIds: [x], overrides } })
    expect(created.status).toBe(201)
    expect(created.body.post.overrides).toEqual({ x: { content: "For X" } })
    const nothing = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [x], overrides: { linkedin: { content: "Nobody" } } }
    })
    expect(nothing.status).toBe(400)
    expect(nothing.body.error.details.fields).toEqual(["content", "mediaIds"])
  })

  it("the idempotency key covers the overrides: the same body replays, other overrides are idempotency_key_reused", async () => {
    const { key, x, linkedin } = await setUp()
    const headers = { "idempotency-key": "overrides-1" }
    const body = { accountIds: [x, linkedin], content: LONG, overrides: { x: { content: "Short" } } }
    const first = await call(host, "POST", "/posts", { key, headers, body })
    expect(first.status).toBe(201)
    const again = await call(host, "POST", "/posts", { key, headers, body })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ replayed: true, post: { id: first.body.post.id } })
    const other = await call(host, "POST", "/posts", {
      key,
      headers,
      body: { ...body, overrides: { x: { content: "Shorter" } } }
    })
    expect(other.status).toBe(422)
    expect(code(other)).toBe("idempotency_key_reused")
  })
})
