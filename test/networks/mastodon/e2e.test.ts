import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { defaultMetricsOptions, refreshDueMetrics } from "../../../application/usecases/metrics/worker.ts"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { continueConnectLink } from "../../support/connectLink.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import sharp from "sharp"
import { type FakeMastodon, startFakeMastodon } from "./fakeMastodon.ts"

/**
 * Mastodon end to end: the real HTTP host (in memory, and on PostgreSQL) connecting an account on
 * the instance stand-in (named with ?instance=, loopback let through by HERALD_ALLOW_LOOPBACK) and
 * the publishing pipeline driven one pass at a time on a clock the test moves.
 */
let fake: FakeMastodon
let png: Buffer
beforeAll(async () => {
  fake = await startFakeMastodon()
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#246" } })
    .png()
    .toBuffer()
  // Effect's default ConfigProvider copies the environment at its first use.
  process.env.HERALD_ALLOW_LOOPBACK = "true"
  // A test host leaves Mastodon off unless a test turns it on.
  process.env.MASTODON_ENABLED = "true"
})
afterAll(() => fake?.close())

describe.each([
  { backend: "memory", user: "109001", username: "alice" },
  { backend: "postgres", user: "109002", username: "bob" }
])("Mastodon end to end on the $backend host", ({ backend, user, username }) => {
  let host: HttpHost
  let ahead = 0
  let key = ""
  let accountId = ""
  /** The post with a thread and a first comment, and its statuses (root, reply, comment). */
  let thread = { id: "", statuses: [] as Array<string> }

  beforeAll(async () => {
    if (backend === "postgres") process.env.HERALD_TEST_BACKEND = "postgres"
    else delete process.env.HERALD_TEST_BACKEND
    host = await startHttpHost()
    const { email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    const created = await call(host, "POST", "/keys", {
      cookie,
      headers: { "x-csrf-token": csrf },
      body: { name: "Mastodon agent", requireApproval: false }
    })
    key = created.body.apiKey
  }, 60_000)
  afterAll(() => host?.close())

  const later = (ms: number) => {
    ahead += ms
    fake.state.clock = Date.now() + ahead
  }
  const pass = () =>
    host.run(
      Effect.gen(function* () {
        fake.state.clock = Date.now() + ahead
        yield* TestClock.setTime(Date.now() + ahead)
        return yield* publishDueTargets(defaultPipelineOptions, 50)
      }).pipe(Effect.provide(TestClock.layer()))
    )
  /** Passes until nothing is due now (media processing asks to come back: the clock moves on for it). */
  const passes = async (max = 10) => {
    for (let i = 0; i < max; i++) {
      if ((await pass()) === 0) {
        later(5_000)
        if ((await pass()) === 0) return
      }
    }
  }

  /** The browser: GET /connect/mastodon?instance=..., Herald's start page, the instance's authorize page, the callback. */
  const connect = async () => {
    fake.state.authorizeAs = user
    const link = await call(host, "GET", `/connect/mastodon?instance=${encodeURIComponent(fake.origin)}`, { key })
    expect(link.status, JSON.stringify(link.body)).toBe(200)
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    expect(next.startsWith(`${fake.origin}/oauth/authorize?`)).toBe(true)
    const atInstance = await fetch(next, { redirect: "manual" })
    expect(atInstance.status).toBe(302)
    const back = await fetch(host.local(atInstance.headers.get("location")!), {
      headers: { accept: "application/json", cookie }
    })
    const body = (await back.json()) as any
    expect(back.status, JSON.stringify(body)).toBe(200)
    return body.account as { id: string; platform: string; username: string; name: string; status: string }
  }
  const post = async (body: Record<string, unknown>) => {
    const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], ...body } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body.post.id as string
  }
  const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post

  it("connects an account on the instance named by ?instance=, listed as username@instance, its token sealed", async () => {
    const apps = fake.apps.length
    const account = await connect()
    expect(account).toMatchObject({ platform: "mastodon", username: `${username}@${fake.host}`, status: "connected" })
    accountId = account.id
    // One registration per instance and callback, kept: connecting again registers nothing.
    expect(fake.apps.length).toBeLessThanOrEqual(apps + 1)
    const again = await connect()
    expect(again.id).toBe(accountId)
    expect(fake.apps.length).toBeLessThanOrEqual(apps + 1)
    const sealed = await host.run(
      Effect.gen(function* () {
        const s = Option.getOrThrow(yield* (yield* CredentialStore).get(accountId)).sealed
        return { s, open: JSON.parse(yield* (yield* TokenVault).open(s)) as NetworkCredentials }
      })
    )
    for (const token of fake.issuedTokens()) expect(sealed.s).not.toContain(token)
    expect(sealed.open.extra).toEqual({ instance: fake.origin, accountId: user })
    const listed = await call(host, "GET", "/accounts", { key })
    expect(listed.body.accounts.map((a: any) => a.username)).toContain(`${username}@${fake.host}`)
  })

  it("without an instance, the link opens Herald's page asking for it, which leads on to the instance", async () => {
    fake.state.authorizeAs = user
    const link = await call(host, "GET", "/connect/mastodon", { key })
    expect(link.status).toBe(200)
    // The form is sent from Herald's page at its public origin.
    const publicOrigin = new URL(link.body.url).origin
    const state = new URL(link.body.url).searchParams.get("state")!
    const sendForm = (headers: Record<string, string> = {}) =>
      fetch(host.local("http://x/connect/mastodon/callback"), {
        method: "POST",
        headers: { origin: publicOrigin, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ state, instance: fake.origin }),
        redirect: "manual"
      })
    // The form is no way around the start page: sent by a browser that did not continue the link, it is refused.
    const registrations = fake.log.calls("POST", "/api/v1/apps").length
    const skipped = await sendForm({ accept: "application/json" })
    expect(skipped.status).toBe(400)
    expect(((await skipped.json()) as any).error.code).toBe("connect_link_not_continued")
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    const formUrl = host.local(next)
    expect(new URL(formUrl).pathname).toBe("/connect/mastodon/form")
    expect(new URL(formUrl).searchParams.get("state")).toBe(state)
    const unbound = await fetch(formUrl)
    expect(unbound.status).toBe(400)
    expect(await unbound.text()).toContain("press Continue")
    const page = await fetch(formUrl, { headers: { cookie } })
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('name="instance"')
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' https:")
    expect(/name="state" value="([^"]+)"/.exec(html)![1]).toBe(state)
    // Another browser (its own cookie, not bound to this link) is refused too; nothing reached the instance.
    const elsewhere = await sendForm({
      accept: "application/json",
      cookie: `${cookie.split("=")[0]}=${"b".repeat(32)}`
    })
    expect(elsewhere.status).toBe(400)
    expect(fake.log.calls("POST", "/api/v1/apps").length).toBe(registrations)
    const sent = await sendForm({ cookie })
    expect(sent.status).toBe(303)
    const authorize = sent.headers.get("location")!
    expect(authorize.startsWith(`${fake.origin}/oauth/authorize?`)).toBe(true)
    const atInstance = await fetch(authorize, { redirect: "manual" })
    const back = await fetch(host.local(atInstance.headers.get("location")!), {
      headers: { accept: "application/json", cookie }
    })
    const body = (await back.json()) as any
    expect(back.status, JSON.stringify(body)).toBe(200)
    expect(body.account).toMatchObject({ id: accountId, username: `${username}@${fake.host}` })
    // The link is used up by the callback, as any connect link.
    const reused = await sendForm({ accept: "application/json", cookie })
    expect(reused.status).toBe(400)
  })

  it("an instance Herald does not call is refused with the field named", async () => {
    const link = await call(host, "GET", "/connect/mastodon?instance=https%3A%2F%2F10.1.2.3", { key })
    expect(link.status).toBe(400)
    expect(link.body.error.details.fields).toEqual(["instance"])
  })

  it("publishes an image, a thread and a first comment, as replies with the post's visibility and warning", async () => {
    const form = new FormData()
    form.append("file", new Blob([png], { type: "image/png" }), "a.png")
    const uploaded = await fetch(`${host.base}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    expect(uploaded.status).toBe(201)
    const mediaId = ((await uploaded.json()) as any).media.id
    const before = fake.statuses.length
    const id = await post({
      content: "Thread start",
      mediaIds: [mediaId],
      thread: ["Second"],
      firstComment: "Comment below",
      mastodon: { visibility: "unlisted", contentWarning: "Long read" }
    })
    await passes()
    later(60_000)
    await passes()
    const published = await view(id)
    expect(published.status, JSON.stringify(published)).toBe("published")
    const [root, second, comment] = fake.statuses.slice(before)
    expect(root).toMatchObject({ text: "Thread start", visibility: "unlisted", spoilerText: "Long read" })
    expect(root!.mediaIds).toHaveLength(1)
    expect(fake.media.get(root!.mediaIds[0]!)).toMatchObject({ type: "image/png", bytes: png.length })
    expect(second).toMatchObject({ text: "Second", inReplyToId: root!.id, visibility: "unlisted" })
    expect(comment).toMatchObject({ text: "Comment below", inReplyToId: root!.id, spoilerText: "Long read" })
    const target = published.targets[0]
    expect(target).toMatchObject({ externalId: root!.id, url: `${fake.origin}/@${username}/${root!.id}` })
    thread = { id, statuses: [root!.id, second!.id, comment!.id] }
  })

  it("reads the post's figures from the instance, then takes it down with its thread and first comment", async () => {
    const [root, second, comment] = thread.statuses
    Object.assign(fake.statuses.find((s) => s.id === root)!, { favourites: 4, reblogs: 1 })
    const asked = await call(host, "POST", `/posts/${thread.id}/metrics/refresh`, { key })
    expect(asked.body).toEqual({ queued: 1, notBefore: null })
    const reads = fake.log.calls("GET", "/api/v1/statuses").length
    await host.run(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now() + ahead)
        return yield* refreshDueMetrics(defaultMetricsOptions)
      }).pipe(Effect.provide(TestClock.layer()))
    )
    expect(fake.log.calls("GET", "/api/v1/statuses").length - reads).toBe(1)
    const { figures } = (await view(thread.id)).targets[0].metrics.latest
    expect([figures.likes.value, figures.replies.value, figures.reposts.value]).toEqual([4, 2, 1])
    expect(figures.views).toEqual({ value: null, reason: "Mastodon counts no views." })

    const down = await call(host, "DELETE", `/posts/${thread.id}/targets/${accountId}`, { key })
    expect(down.status, JSON.stringify(down.body)).toBe(202)
    expect(down.body.post.targets[0].deletion.status).toBe("deleting")
    await passes()
    expect((await view(thread.id)).targets[0].deletion).toMatchObject({ status: "deleted", error: null })
    expect([...fake.deleted].sort()).toEqual(expect.arrayContaining([root, second, comment]))
    expect(fake.statuses.some((s) => [root, second, comment].includes(s.id))).toBe(false)
  })

  it("publishes a poll", async () => {
    const id = await post({ content: "Which one?", poll: { options: ["This", "That"], durationMinutes: 60 } })
    await passes()
    expect((await view(id)).status).toBe("published")
    expect(fake.statuses.at(-1)).toMatchObject({
      text: "Which one?",
      poll: { options: ["This", "That"], expiresIn: 3600 }
    })
  })

  it("a dry run names the instance's own limit for the target", async () => {
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "Checking https://example.com", dryRun: true }
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const warnings: Array<string> = reply.body.targets?.[0]?.warnings ?? reply.body.preview?.targets?.[0]?.warnings
    expect(warnings.join(" ")).toContain(`${fake.host} takes statuses of up to 500 characters`)
    expect(warnings.join(" ")).toContain("the longest here uses 32.")
  })

  it("refuses at create a content warning that, with the text, is over Mastodon's limit", async () => {
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x".repeat(495), mastodon: { contentWarning: "Spoilers" } }
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error.details.fields).toEqual(["mastodon.contentWarning"])
    const fits = await call(host, "POST", "/posts", {
      key,
      body: {
        accountIds: [accountId],
        content: "x".repeat(492),
        mastodon: { contentWarning: "Spoilers" },
        dryRun: true
      }
    })
    expect(fits.status).toBe(200)
  })

  it("refuses visibility outside Mastodon's four, at create", async () => {
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x", mastodon: { visibility: "followers" } }
    })
    expect(reply.status).toBe(400)
  })

  it("honours a 429 until the instance's reset: no call before it, published after", async () => {
    const reset = new Date(Date.now() + ahead + 120_000).toISOString()
    fake.log.script("POST", "/api/v1/statuses", {
      status: 429,
      body: { error: "Too many requests" },
      headers: { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }
    })
    const id = await post({ content: "Waits for the window" })
    await pass()
    expect((await view(id)).targets[0]).toMatchObject({ status: "publishing", externalId: null })
    const calls = fake.log.calls("POST", "/api/v1/statuses").length
    later(110_000)
    expect(await pass()).toBe(0)
    expect(fake.log.calls("POST", "/api/v1/statuses")).toHaveLength(calls)
    later(15_000)
    await passes()
    expect((await view(id)).status).toBe("published")
    expect(fake.log.calls("POST", "/api/v1/statuses")).toHaveLength(calls + 1)
  })

  it("a revoked token marks the account needs_reconnection; reconnecting restores it", async () => {
    fake.revoke(user)
    const id = await post({ content: "After revocation" })
    await pass()
    const failed = (await view(id)).targets[0]
    expect(failed).toMatchObject({ status: "failed", error: { code: "account_needs_reconnection" } })
    expect(failed.error.message).toContain("revoked")
    const accounts = await call(host, "GET", "/accounts", { key })
    expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("needs_reconnection")
    const back = await connect()
    expect(back).toMatchObject({ id: accountId, status: "connected" })
    const id2 = await post({ content: "Reconnected" })
    await passes()
    expect((await view(id2)).status).toBe("published")
  })
})
