import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import { monthOf } from "../../domain/time.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { addAccount, claim, connectSandbox, signUp } from "../support/flows.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const future = (ms: number) => new Date(Date.now() + ms).toISOString()
const HOUR = 3_600_000

const code = (reply: { body: any }) => reply.body?.error?.code

/** A claimed workspace with a session, the sign-up key and a sandbox account. */
const setUp = async () => {
  const { email, key, workspaceId } = await signUp(host)
  const accountId = await connectSandbox(host, key)
  return { email, key, workspaceId, accountId }
}

const addMedia = (workspaceId: string, id: string, type: "image" | "video", expiresAt = Date.now() + 7 * 24 * HOUR) =>
  host.run(
    Effect.flatMap(MediaRepo, (repo) =>
      repo.insert({
        id,
        workspaceId,
        type,
        mimeType: type === "image" ? "image/png" : "video/mp4",
        filename: `${id}.bin`,
        sizeBytes: 10,
        width: 100,
        height: 100,
        durationMs: type === "video" ? 5000 : null,
        blobKey: id,
        previewKey: null,
        createdAt: Date.now(),
        expiresAt
      })
    )
  )

describe("accounts", () => {
  it("lists connected accounts; connect URL for sandbox; unknown platform 404", async () => {
    const { key, accountId } = await setUp()
    const list = await call(host, "GET", "/accounts", { key })
    expect(list.body.accounts).toEqual([
      expect.objectContaining({ id: accountId, platform: "sandbox", status: "connected" })
    ])
    const bad = await call(host, "GET", "/connect/myspace", { key })
    expect(bad.status).toBe(404)
    expect(code(bad)).toBe("platform_unavailable")
    expect(bad.body.error.details.available).toContain("sandbox")
  })
})

describe("POST /posts", () => {
  it("an asks-first key's post waits for approval, whatever requireApproval says", async () => {
    const { key, accountId } = await setUp()
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "hello", requireApproval: false }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.post.status).toBe("needs_approval")
    expect(reply.body.post.targets).toEqual([expect.objectContaining({ accountId, status: "needs_approval" })])
    expect(reply.body.post.createdBy).toMatchObject({ kind: "key", name: "Test agent" })
    const got = await call(host, "GET", `/posts/${reply.body.post.id}`, { key })
    expect(got.body.post.id).toBe(reply.body.post.id)
  })

  it("dry run: 200 with valid, warnings, requireApproval, wouldPost; nothing stored or counted", async () => {
    const { key, accountId, workspaceId } = await setUp()
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x", dryRun: true, tiktokAiGenerated: true }
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ dryRun: true, valid: true, requireApproval: true })
    expect(reply.body.warnings.join(" ")).toContain("tiktokAiGenerated")
    expect(reply.body.wouldPost.targets[0].accountId).toBe(accountId)
    expect((await call(host, "GET", "/posts", { key })).body.posts).toEqual([])
    expect(await host.run(Effect.flatMap(UsageCounter, (u) => u.current(workspaceId, monthOf(Date.now()))))).toBe(0)
  })

  it.each([
    [{}, ["accountIds"]],
    [{ accountIds: [] }, ["accountIds"]],
    [{ accountIds: ["a"], content: 5 }, ["content"]],
    [{ accountIds: ["a"], thread: ["x"], firstReply: "y" }, ["firstReply", "thread"]],
    [{ accountIds: ["a"], content: "x", scheduled_for: "2030-01-01T00:00:00Z" }, ["scheduled_for"]],
    [{ accountIds: ["a"] }, ["content"]]
  ])("400 validation_failed names the fields: %j", async (body, fields) => {
    const { key } = await setUp()
    const reply = await call(host, "POST", "/posts", { key, body })
    expect(reply.status).toBe(400)
    expect(code(reply)).toBe("validation_failed")
    for (const f of fields) expect(reply.body.error.details.fields).toContain(f)
  })

  it.each([
    ["2030-01-01T10:00:00", "invalid_date"],
    ["tomorrow", "invalid_date"],
    ["2020-01-01T00:00:00Z", "scheduled_in_past"],
    [new Date(Date.now() + 366 * 24 * HOUR).toISOString(), "scheduled_too_far"]
  ])("scheduledFor %s gives %s", async (scheduledFor, expected) => {
    const { key, accountId } = await setUp()
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x", scheduledFor }
    })
    expect(reply.status).toBe(400)
    expect(code(reply)).toBe(expected)
  })

  it("scheduledFor with an offset is stored in UTC with Z", async () => {
    const { key, accountId } = await setUp()
    const at = new Date(Date.now() + 2 * HOUR)
    at.setUTCMilliseconds(0)
    const local = new Date(at.getTime() + 9 * HOUR).toISOString().replace(".000Z", "+09:00")
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x", scheduledFor: local }
    })
    expect(reply.body.post.scheduledFor).toBe(at.toISOString())
  })

  it("per-network capability and media rules", async () => {
    const { key, workspaceId, accountId } = await setUp()
    const insta = await addAccount(host, workspaceId, "instagram")
    const linkedin = await addAccount(host, workspaceId, "linkedin")
    const tiktok = await addAccount(host, workspaceId, "tiktok")
    const stale = await addAccount(host, workspaceId, "x", "needs_reconnection")
    await addMedia(workspaceId, "med_img1", "image")
    await addMedia(workspaceId, "med_vid1", "video")
    await addMedia(workspaceId, "med_old", "image", Date.now() - 1000)
    const post = (body: object) => call(host, "POST", "/posts", { key, body: { content: "hi", ...body } })
    expect(code(await post({ accountIds: [insta] }))).toBe("media_required")
    expect(code(await post({ accountIds: [linkedin], thread: ["more"] }))).toBe("thread_unsupported")
    expect(
      code(
        await post({
          accountIds: [insta],
          mediaIds: ["med_img1"],
          poll: { options: ["a", "b"], durationMinutes: 1440 }
        })
      )
    ).toBe("poll_unsupported")
    expect(
      code(
        await post({
          accountIds: [linkedin],
          mediaIds: ["med_img1"],
          poll: { options: ["a", "b"], durationMinutes: 1440 }
        })
      )
    ).toBe("poll_unsupported")
    expect(code(await post({ accountIds: [tiktok], mediaIds: ["med_vid1"], firstComment: "link" }))).toBe(
      "first_comment_unsupported"
    )
    expect(
      code(
        await post({
          accountIds: [accountId, await addAccount(host, workspaceId, "bluesky")],
          mediaIds: ["med_vid1"],
          cover: { offsetMs: 100 }
        })
      )
    ).toBe("cover_unsupported")
    expect(code(await post({ accountIds: [tiktok], mediaIds: ["med_img1"], tiktokAiGenerated: true }))).toBe(
      "tiktok_ai_unsupported"
    )
    expect(
      code(
        await post({
          accountIds: [tiktok],
          mediaIds: ["med_vid1"],
          tiktok: { privacyLevel: "SELF_ONLY", brandedContent: true }
        })
      )
    ).toBe("tiktok_privacy_conflict")
    expect(code(await post({ accountIds: ["acc_nope"] }))).toBe("account_not_found")
    expect(code(await post({ accountIds: [stale] }))).toBe("account_needs_reconnection")
    expect(code(await post({ accountIds: [accountId], mediaIds: ["med_missing"] }))).toBe("media_not_found")
    const expired = await post({ accountIds: [accountId], mediaId: "med_old" })
    expect(expired.status).toBe(409)
    expect(code(expired)).toBe("media_expired")
    const tooLong = await post({ accountIds: [await addAccount(host, workspaceId, "x")], content: "a".repeat(281) })
    expect(code(tooLong)).toBe("validation_failed")
    expect(tooLong.body.error.details).toMatchObject({ fields: ["content"], platform: "x", limit: 280 })
    expect(
      (await post({ accountIds: [linkedin], poll: { options: ["a", "b"], durationMinutes: 4320, question: "Which?" } }))
        .status
    ).toBe(201)
  })

  it("409 no_accounts_connected before any account is connected", async () => {
    const { key } = await signUp(host)
    const reply = await call(host, "POST", "/posts", { key, body: { accountIds: ["acc_x"], content: "x" } })
    expect(reply.status).toBe(409)
    expect(code(reply)).toBe("no_accounts_connected")
  })

  it("Idempotency-Key: same body replays with 200 and replayed: true; another body is 422", async () => {
    const { key, accountId } = await setUp()
    const headers = { "idempotency-key": "abc-123" }
    const first = await call(host, "POST", "/posts", {
      key,
      headers,
      body: { accountIds: [accountId], content: "once" }
    })
    expect(first.status).toBe(201)
    const replay = await call(host, "POST", "/posts", {
      key,
      headers,
      body: { content: "once", accountIds: [accountId] }
    })
    expect(replay.status).toBe(200)
    expect(replay.body.replayed).toBe(true)
    expect(replay.body.post.id).toBe(first.body.post.id)
    const other = await call(host, "POST", "/posts", {
      key,
      headers,
      body: { accountIds: [accountId], content: "twice" }
    })
    expect(other.status).toBe(422)
    expect(code(other)).toBe("idempotency_key_reused")
    expect((await call(host, "GET", "/posts", { key })).body.posts).toHaveLength(1)
  })

  it("403 post_limit_reached past 30 posts a month on Free; dry runs still work", async () => {
    const { key, accountId, workspaceId } = await setUp()
    await host.run(
      Effect.flatMap(UsageCounter, (u) => Effect.repeat(u.increment(workspaceId, monthOf(Date.now())), { times: 28 }))
    )
    expect(
      (await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "30th" } })).status
    ).toBe(201)
    const over = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "31st" } })
    expect(over.status).toBe(403)
    expect(code(over)).toBe("post_limit_reached")
    const dry = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "31st", dryRun: true }
    })
    expect(dry.status).toBe(200)
    expect(dry.body.valid).toBe(false)
  })

  it("40 concurrent creates on a fresh Free month: exactly 30 are created, the rest are post_limit_reached", async () => {
    const { key, accountId } = await setUp()
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(host, "POST", "/posts", {
          key,
          body: { accountIds: [accountId], content: `race ${i}`, requireApproval: true }
        })
      )
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(30)
    const refused = answers.filter((a) => a.status !== 201)
    expect(refused).toHaveLength(10)
    for (const answer of refused) expect(code(answer)).toBe("post_limit_reached")
    const listed = await call(host, "GET", "/posts?limit=100", { key })
    expect(listed.body.posts).toHaveLength(30)
    const dry = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "one more", dryRun: true }
    })
    expect(dry.body.wouldPost.usage).toMatchObject({ used: 30, limit: 30 })
  })
})

describe("GET /posts", () => {
  it("newest first, status filter, cursor paging, 404 across workspaces, bad limit 400", async () => {
    const { key, accountId } = await setUp()
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++)
      ids.push(
        (await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: `p${i}` } })).body.post.id
      )
    const page1 = await call(host, "GET", "/posts?limit=2", { key })
    expect(page1.body.posts.map((p: any) => p.id)).toEqual([ids[2], ids[1]])
    const page2 = await call(host, "GET", `/posts?limit=2&cursor=${page1.body.nextCursor}`, { key })
    expect(page2.body.posts.map((p: any) => p.id)).toEqual([ids[0]])
    expect(page2.body.nextCursor).toBeNull()
    expect((await call(host, "GET", "/posts?status=published", { key })).body.posts).toEqual([])
    expect(code(await call(host, "GET", "/posts?limit=0", { key }))).toBe("validation_failed")
    const other = await setUp()
    const foreign = await call(host, "GET", `/posts/${ids[0]}`, { key: other.key })
    expect(foreign.status).toBe(404)
    expect(code(foreign)).toBe("post_not_found")
  })
})

describe("post actions", () => {
  it("keys cannot approve; a signed-in person approves; the post goes out or is scheduled", async () => {
    const { key, accountId, email } = await setUp()
    const now = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "now" } })
    const later = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "later", scheduledFor: future(HOUR) }
    })
    const refused = await call(host, "POST", `/posts/${now.body.post.id}/approve`, { key })
    expect(refused.status).toBe(403)
    expect(code(refused)).toBe("approval_requires_human")
    const { cookie, csrf } = await claim(host, email)
    const noCsrf = await call(host, "POST", `/posts/${now.body.post.id}/approve`, { cookie })
    expect(code(noCsrf)).toBe("csrf_failed")
    const approved = await call(host, "POST", `/posts/${now.body.post.id}/approve`, {
      cookie,
      headers: { "x-csrf-token": csrf }
    })
    expect(approved.status).toBe(200)
    expect(["publishing", "published"]).toContain(approved.body.post.status)
    const scheduled = await call(host, "POST", `/posts/${later.body.post.id}/approve`, {
      cookie,
      headers: { "x-csrf-token": csrf }
    })
    expect(scheduled.body.post.status).toBe("scheduled")
    const twice = await call(host, "POST", `/posts/${later.body.post.id}/approve`, {
      cookie,
      headers: { "x-csrf-token": csrf }
    })
    expect(twice.status).toBe(409)
    const fc = await call(host, "POST", `/posts/${later.body.post.id}/first-comment/retry`, { key, body: {} })
    expect(code(fc)).toBe("approval_requires_human")
  })

  it("a key acts only on its own posts; reject/cancel hide the post; reschedule moves it", async () => {
    const { key, accountId, email } = await setUp()
    const { cookie, csrf } = await claim(host, email)
    const second = await call(host, "POST", "/keys", {
      cookie,
      headers: { "x-csrf-token": csrf },
      body: { name: "Other agent", requireApproval: true }
    })
    expect(second.status).toBe(201)
    const otherKey = second.body.apiKey
    const mine = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "mine", scheduledFor: future(HOUR) }
    })
    const id = mine.body.post.id
    for (const [action, expected] of [
      ["reject", "reject_not_own_post"],
      ["cancel", "cancel_not_own_post"],
      ["reschedule", "reschedule_not_own_post"],
      ["retry", "retry_not_own_post"]
    ]) {
      // Each action with a body it accepts: unknown fields are refused before the ownership check.
      const body = action === "reschedule" ? { scheduledFor: future(2 * HOUR) } : {}
      const reply = await call(host, "POST", `/posts/${id}/${action}`, { key: otherKey, body })
      expect(reply.status, action).toBe(403)
      expect(code(reply)).toBe(expected)
    }
    const moved = await call(host, "POST", `/posts/${id}/reschedule`, { key, body: { scheduledFor: future(3 * HOUR) } })
    expect(moved.status).toBe(200)
    expect(Date.parse(moved.body.post.scheduledFor)).toBeGreaterThan(Date.now() + 2.5 * HOUR)
    expect(
      code(await call(host, "POST", `/posts/${id}/reschedule`, { key, body: { scheduledFor: "2020-01-01T00:00:00Z" } }))
    ).toBe("scheduled_in_past")
    const rejected = await call(host, "POST", `/posts/${id}/reject`, { key })
    expect(rejected.body).toEqual({ id, rejected: true })
    expect((await call(host, "GET", `/posts/${id}`, { key })).status).toBe(404)
    const another = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "bye" } })
    expect((await call(host, "POST", `/posts/${another.body.post.id}/cancel`, { key })).body.cancelled).toBe(true)
    expect(code(await call(host, "POST", `/posts/${another.body.post.id}/cancel`, { key }))).toBe("post_not_found")
  })

  it("concurrent actions on one post: exactly one cancel wins, the rest see it gone", async () => {
    const { key, accountId } = await setUp()
    const id = (
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "race", scheduledFor: future(HOUR) }
      })
    ).body.post.id
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => call(host, "POST", `/posts/${id}/cancel`, { key }))
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 404).map(code)).toEqual(Array(7).fill("post_not_found"))
  })

  it("bulk approve and reject need a person", async () => {
    const { key, accountId, email } = await setUp()
    const a = (
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "a", scheduledFor: future(HOUR) }
      })
    ).body.post.id
    const b = (
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "b", scheduledFor: future(HOUR) }
      })
    ).body.post.id
    expect(code(await call(host, "POST", "/posts/bulk-approve", { key, body: { postIds: [a] } }))).toBe(
      "approval_requires_human"
    )
    const { cookie, csrf } = await claim(host, email)
    const headers = { "x-csrf-token": csrf }
    const approved = await call(host, "POST", "/posts/bulk-approve", {
      cookie,
      headers,
      body: { postIds: [a, "post_missing"] }
    })
    expect(approved.body.results).toEqual([
      { id: a, ok: true, error: null },
      expect.objectContaining({ id: "post_missing", ok: false })
    ])
    const rejected = await call(host, "POST", "/posts/bulk-reject", { cookie, headers, body: { postIds: [b] } })
    expect(rejected.body.results[0].ok).toBe(true)
  })
})

describe("protocol", () => {
  it("unknown routes, wrong methods and wrong content types answer in the envelope", async () => {
    const { key } = await setUp()
    expect(code(await call(host, "GET", "/nothing-here", { key }))).toBe("not_found")
    const wrong = await call(host, "DELETE", "/posts", { key })
    expect(wrong.status).toBe(405)
    expect(code(wrong)).toBe("method_not_allowed")
    const text = await call(host, "POST", "/posts", { key, raw: "hello", headers: { "content-type": "text/plain" } })
    expect(text.status).toBe(415)
    expect(code(text)).toBe("unsupported_content_type")
  })

  it("serves OpenAPI 3.1 and a docs page from the one definition", async () => {
    const doc = await call(host, "GET", "/openapi.json")
    expect(doc.body.openapi).toBe("3.1.0")
    expect(Object.keys(doc.body.paths)).toContain("/api/v1/posts")
    const docs = await fetch(`${host.base}/docs`)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain("<html")
  })
})
