import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SandboxPublished } from "../../../adapters/networks/sandbox/SandboxPublisher.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { claim, connectSandbox, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeX, startFakeX } from "./fakeX.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

/**
 * X end to end: the real HTTP host (in memory, and on PostgreSQL), configured by X_* variables to
 * talk to the fake X, and the publishing pipeline driven one pass at a time on a clock the test moves
 * (each pass runs on a TestClock set ahead of the real one by `ahead`, and the fake X shares it).
 */
let fake: FakeX
let mp4: Buffer
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "herald-x-video-"))
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=320x240:rate=15",
    "-t",
    "1",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    join(dir, "clip.mp4")
  ])
  mp4 = readFileSync(join(dir, "clip.mp4"))
  rmSync(dir, { recursive: true, force: true })
  fake = await startFakeX()
  // Effect's default ConfigProvider copies the environment at its first use: one fake X for both hosts, each with its own X user.
  Object.assign(process.env, {
    X_CLIENT_ID: fake.clientId,
    X_CLIENT_SECRET: fake.clientSecret,
    X_AUTHORIZE_URL: fake.authorizeUrl,
    X_TOKEN_URL: fake.tokenUrl,
    X_API_URL: fake.origin
  })
})
afterAll(() => fake?.close())

describe.each([
  { backend: "memory", user: { id: "1001", username: "alice", name: "Alice Example" } },
  { backend: "postgres", user: { id: "1002", username: "bob", name: "Bob Example" } }
])("X end to end on the $backend host", ({ backend, user }) => {
  let host: HttpHost
  let ahead = 0
  let key = ""
  let accountId = ""

  beforeAll(async () => {
    if (backend === "postgres") process.env.HERALD_TEST_BACKEND = "postgres"
    else delete process.env.HERALD_TEST_BACKEND
    host = await startHttpHost()
    const { email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    const created = await call(host, "POST", "/keys", {
      cookie,
      headers: { "x-csrf-token": csrf },
      body: { name: "X agent", requireApproval: false }
    })
    key = created.body.apiKey
  }, 60_000)
  afterAll(() => host?.close())

  /** Moves Herald's and X's time `ms` ahead of the real clock. */
  const later = (ms: number) => {
    ahead += ms
    fake.state.offsetMs = ahead
  }
  /** One pass of the publishing worker at the moved time: what is due runs to an outcome. */
  const pass = () =>
    host.run(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now() + ahead)
        return yield* publishDueTargets(defaultPipelineOptions, 50)
      }).pipe(Effect.provide(TestClock.layer()))
    )

  /** The browser: GET /connect/x, open its URL at X, follow X's redirect back to Herald's callback. */
  const connectX = async () => {
    fake.state.authorizeAs = user.id
    const link = await call(host, "GET", "/connect/x", { key })
    expect(link.status).toBe(200)
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    const atX = await fetch(next, { redirect: "manual" })
    expect(atX.status).toBe(302)
    const back = await fetch(host.local(atX.headers.get("location")!), {
      headers: { accept: "application/json", cookie }
    })
    const body = (await back.json()) as any
    expect(back.status, JSON.stringify(body)).toBe(200)
    return body.account as { id: string; platform: string; username: string; name: string; status: string }
  }
  const stored = () =>
    host.run(
      Effect.gen(function* () {
        const sealed = Option.getOrThrow(yield* (yield* CredentialStore).get(accountId)).sealed
        return { sealed, open: JSON.parse(yield* (yield* TokenVault).open(sealed)) as NetworkCredentials }
      })
    )
  const post = async (body: Record<string, unknown>) => {
    const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], ...body } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body.post.id as string
  }
  const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post

  it("a refusal on the callback shows a fixed sentence for its code, never the URL's error_description", async () => {
    const link = await call(host, "GET", "/connect/x", { key })
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    const state = new URL(next).searchParams.get("state")!
    const words = "Your account is locked. Call +1 555 0100 now"
    for (const [error, sentence] of [
      ["access_denied", "Access was not granted on the network&#39;s page."],
      ["made_up<b>", "X did not grant access: The network did not grant access."]
    ]) {
      const callback = `${host.origin}/connect/x/callback?${new URLSearchParams({ state, error, error_description: words })}`
      const page = await fetch(callback, { headers: { cookie } })
      expect(page.status).toBe(400)
      const html = await page.text()
      expect(html).toContain(sentence)
      expect(html).not.toContain("555")
      expect(html).not.toContain("made_up")
    }
  })

  it("connects an X account through the browser flow; the tokens are stored sealed", async () => {
    expect((await call(host, "GET", "/connect/sandbox", { key })).status).toBe(200)
    const account = await connectX()
    expect(account).toMatchObject({ platform: "x", username: user.username, name: user.name, status: "connected" })
    accountId = account.id
    const { sealed, open } = await stored()
    expect(open.refreshToken).toMatch(/^rt_/)
    for (const token of fake.issuedTokens()) expect(sealed).not.toContain(token)
    const exchange = fake.calls("POST", "/2/oauth2/token").at(-1)!
    expect(exchange.body).toMatchObject({
      grant_type: "authorization_code",
      redirect_uri: "http://herald.test/connect/x/callback"
    })
  })

  it("reconnecting the same X user keeps the account id, and a refresh token X does not send again is kept", async () => {
    const before = (await stored()).open
    fake.state.omitRefreshToken = true
    const again = await connectX()
    fake.state.omitRefreshToken = false
    expect(again.id).toBe(accountId)
    const after = (await stored()).open
    expect(after.accessToken).not.toBe(before.accessToken)
    expect(after.refreshToken).toBe(before.refreshToken)
    const accounts = await call(host, "GET", "/accounts", { key })
    expect(accounts.body.accounts.filter((a: any) => a.platform === "x")).toHaveLength(1)
  })

  it("publishes a thread, then its first comment 10 s later, as chained replies", async () => {
    const id = await post({ content: "Thread start", thread: ["Second", "Third"], firstComment: "Comment below" })
    const tweetsBefore = fake.tweets.length
    expect(await pass()).toBe(1)
    const published = await view(id)
    expect(published.status).toBe("published")
    const target = published.targets[0]
    const [root, second, third] = fake.tweets.slice(tweetsBefore)
    expect(target).toMatchObject({
      status: "published",
      externalId: root.id,
      url: `https://x.com/${user.username}/status/${root.id}`
    })
    expect(target.thread.map((r: any) => r.externalId)).toEqual([second.id, third.id])
    expect([root.replyTo, second.replyTo, third.replyTo]).toEqual([null, root.id, second.id])
    later(10_000)
    expect(await pass()).toBe(1)
    const comment = fake.tweets.at(-1)!
    expect(comment).toMatchObject({ text: "Comment below", replyTo: root.id })
    expect((await view(id)).targets[0].firstComment).toMatchObject({ status: "published", externalId: comment.id })
  })

  it("publishes a poll", async () => {
    const id = await post({ content: "Which one?", poll: { options: ["This", "That"], durationMinutes: 60 } })
    await pass()
    expect((await view(id)).status).toBe("published")
    expect(fake.calls("POST", "/2/tweets").at(-1)!.body).toEqual({
      text: "Which one?",
      poll: { options: ["This", "That"], duration_minutes: 60 }
    })
  })

  it("a video: uploaded, then X's processing polled pass by pass with the worker free between polls, then posted", async () => {
    const form = new FormData()
    form.append("file", new Blob([mp4], { type: "video/mp4" }), "clip.mp4")
    const uploaded = await fetch(`${host.base}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    expect(uploaded.status).toBe(201)
    const mediaId = ((await uploaded.json()) as any).media.id
    fake.state.statusPolls = 3
    const id = await post({ content: "A short clip", mediaIds: [mediaId] })
    const start = fake.requests.length
    expect(await pass()).toBe(1)
    expect(await pass(), "the job waits in the queue, not in a worker").toBe(0)
    // X asked to come back after 1 s, then 5 s twice; ready media goes out a second later.
    for (const wait of [1000, 5000, 5000, 1000]) {
      later(wait)
      expect(await pass()).toBe(1)
    }
    const published = await view(id)
    expect(published.status).toBe("published")
    const calls = fake.requests
      .slice(start)
      .map((r) => `${r.method} ${r.path.replace(/\d{10,}/, ":id")}${r.query.command ? `?${r.query.command}` : ""}`)
    expect(calls).toEqual([
      "POST /2/media/upload/initialize",
      "POST /2/media/upload/:id/append",
      "POST /2/media/upload/:id/finalize",
      "GET /2/media/upload?STATUS",
      "GET /2/media/upload?STATUS",
      "GET /2/media/upload?STATUS",
      `GET /2/users/${user.id}/tweets`,
      "POST /2/tweets"
    ])
    const tweet = fake.tweets.at(-1)!
    expect(tweet).toMatchObject({ text: "A short clip", mediaIds: [fake.requests[start + 2].path.split("/")[4]] })
    expect(published.targets[0].externalId).toBe(tweet.id)
    expect(fake.media.get(tweet.mediaIds[0])).toMatchObject({ totalBytes: mp4.length, category: "tweet_video" })
  })

  it("honours a 429 until X's reset: no call before it, published after", async () => {
    const reset = Math.ceil((Date.now() + ahead) / 1000) + 120
    fake.script("POST", "/2/tweets", {
      status: 429,
      body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
      headers: {
        "x-rate-limit-limit": "100",
        "x-rate-limit-remaining": "0",
        "x-rate-limit-reset": String(reset)
      }
    })
    const id = await post({ content: "Waits for the window" })
    await pass()
    const waiting = await view(id)
    expect(waiting.targets[0]).toMatchObject({ status: "publishing", externalId: null })
    const calls = fake.calls("POST", "/2/tweets").length
    later(reset * 1000 - (Date.now() + ahead) - 5_000)
    expect(await pass()).toBe(0)
    expect(fake.calls("POST", "/2/tweets")).toHaveLength(calls)
    later(6_000)
    expect(await pass()).toBe(1)
    expect((await view(id)).status).toBe("published")
    expect(fake.calls("POST", "/2/tweets")).toHaveLength(calls + 1)
  })

  it("renews an expired access token with the refresh token; the rotated one is stored, sealed", async () => {
    const before = (await stored()).open
    later(2 * 3600_000)
    const id = await post({ content: "Two hours later" })
    await pass()
    expect((await view(id)).status).toBe("published")
    const refresh = fake.calls("POST", "/2/oauth2/token").at(-1)!
    expect(refresh.body).toEqual({ grant_type: "refresh_token", refresh_token: before.refreshToken })
    const { sealed, open } = await stored()
    expect(open.refreshToken).not.toBe(before.refreshToken)
    expect(fake.calls("POST", "/2/tweets").at(-1)!.headers.authorization).toBe(`Bearer ${open.accessToken}`)
    for (const token of fake.issuedTokens()) expect(sealed).not.toContain(token)
  })

  it("a revoked grant (401, then a refused refresh) marks the account needs_reconnection, with no retry loop; reconnecting restores it", async () => {
    fake.revoke(user.id)
    const id = await post({ content: "After revocation" })
    const requests = fake.requests.length
    await pass()
    const failed = (await view(id)).targets[0]
    expect(failed).toMatchObject({ status: "failed", error: { code: "account_needs_reconnection" } })
    expect(failed.error.message).toContain("Value passed for the token was invalid.")
    expect(fake.requests.slice(requests).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /2/tweets",
      "POST /2/oauth2/token"
    ])
    const accounts = await call(host, "GET", "/accounts", { key })
    expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("needs_reconnection")
    const refused = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "Refused at once" }
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe("account_needs_reconnection")
    later(3600_000)
    await pass()
    expect(fake.requests.length).toBe(requests + 2)
    const back = await connectX()
    expect(back).toMatchObject({ id: accountId, status: "connected" })
    const id2 = await post({ content: "Reconnected" })
    await pass()
    expect((await view(id2)).status).toBe("published")
  })

  it("per-network content: the X target gets its short override while the sandbox target gets the long text", async () => {
    const sandbox = await connectSandbox(host, key)
    const long = `${"A longer text, for the sandbox network only. ".repeat(8)}(${backend})`
    const short = `Short, for X (${backend})`
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId, sandbox], content: long, overrides: { x: { content: short } } }
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const tweetsBefore = fake.tweets.length
    expect(await pass()).toBe(2)
    expect(fake.tweets.slice(tweetsBefore).map((t) => t.text)).toEqual([short])
    const sandboxed = await host.run(
      Effect.map(SandboxPublished, (s) => s.all().filter((r) => r.postId === reply.body.post.id))
    )
    expect(sandboxed.map((r) => r.content)).toEqual([long])
    expect((await view(reply.body.post.id)).status).toBe("published")
  })
})
