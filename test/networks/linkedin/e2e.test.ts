import { Effect } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeLinkedIn, startFakeLinkedIn } from "./fakeLinkedIn.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

/**
 * LinkedIn end to end: the real HTTP host (in memory, and on PostgreSQL) configured by LINKEDIN_*
 * variables to talk to the fake LinkedIn, and the publishing pipeline driven one pass at a time on a
 * clock the test moves (the fake LinkedIn shares it).
 */
let fake: FakeLinkedIn
beforeAll(async () => {
  fake = await startFakeLinkedIn()
  Object.assign(process.env, {
    LINKEDIN_CLIENT_ID: fake.clientId,
    LINKEDIN_CLIENT_SECRET: fake.clientSecret,
    LINKEDIN_AUTHORIZE_URL: fake.authorizeUrl,
    LINKEDIN_TOKEN_URL: fake.tokenUrl,
    LINKEDIN_API_URL: fake.origin
  })
})
afterAll(() => fake?.close())

const png = (color: string) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
    .png()
    .toBuffer()

describe.each([{ backend: "memory" }, { backend: "postgres" }])(
  "LinkedIn end to end on the $backend host",
  ({ backend }) => {
    let host: HttpHost
    let ahead = 0
    let key = ""
    let memberId = ""
    let pageId = ""

    beforeAll(async () => {
      if (backend === "postgres") process.env.HERALD_TEST_BACKEND = "postgres"
      else delete process.env.HERALD_TEST_BACKEND
      host = await startHttpHost()
      const { email } = await signUp(host)
      const { cookie, csrf } = await claim(host, email)
      key = (
        await call(host, "POST", "/keys", {
          cookie,
          headers: { "x-csrf-token": csrf },
          body: { name: "LinkedIn agent", requireApproval: false }
        })
      ).body.apiKey
    }, 60_000)
    afterAll(() => host?.close())

    const later = (ms: number) => {
      ahead += ms
      fake.state.offsetMs = ahead
    }
    const pass = () =>
      host.run(
        Effect.gen(function* () {
          yield* TestClock.setTime(Date.now() + ahead)
          return yield* publishDueTargets(defaultPipelineOptions, 50)
        }).pipe(Effect.provide(TestClock.layer()))
      )

    /** The browser: GET /connect/linkedin, open its URL at LinkedIn, follow the redirect back to Herald's callback. */
    const connect = async (member: string) => {
      fake.state.authorizeAs = member
      const link = await call(host, "GET", "/connect/linkedin", { key })
      expect(link.status).toBe(200)
      const { next, cookie } = await continueConnectLink(host.local(link.body.url))
      const atLinkedIn = await fetch(next, { redirect: "manual" })
      expect(atLinkedIn.status).toBe(302)
      const back = await fetch(host.local(atLinkedIn.headers.get("location")!), {
        headers: { accept: "application/json", cookie }
      })
      const body = (await back.json()) as any
      expect(back.status, JSON.stringify(body)).toBe(200)
      return body.accounts as Array<{ id: string; platform: string; username: string; name: string; status: string }>
    }
    const post = async (body: Record<string, unknown>) => {
      const reply = await call(host, "POST", "/posts", { key, body })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body.post.id as string
    }
    const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post
    const uploadImage = async (color: string) => {
      const form = new FormData()
      form.append("file", new Blob([await png(color)], { type: "image/png" }), `${color}.png`)
      const uploaded = await fetch(`${host.base}/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form
      })
      expect(uploaded.status).toBe(201)
      return ((await uploaded.json()) as any).media.id as string
    }

    it("connects the member and the page the member administers, each its own account", async () => {
      const accounts = await connect("m-alice")
      expect(accounts.map((a) => ({ platform: a.platform, name: a.name, status: a.status }))).toEqual([
        { platform: "linkedin", name: "Alice Example", status: "connected" },
        { platform: "linkedin", name: "Herald Example Corp", status: "connected" }
      ])
      ;[memberId, pageId] = accounts.map((a) => a.id)
      const again = await connect("m-alice")
      expect(again.map((a) => a.id)).toEqual([memberId, pageId])
    })

    it("publishes a poll as the page, and two images with a first comment as the member", async () => {
      const poll = await post({
        accountIds: [pageId],
        content: `Which launch date works? (${backend})`,
        poll: { options: ["Monday", "Friday"], durationMinutes: 10_080 }
      })
      const images = [await uploadImage("#a33"), await uploadImage("#3a3")]
      const pictures = await post({
        accountIds: [memberId],
        content: `Two pictures from the offsite #team (${backend})`,
        mediaIds: images,
        firstComment: "Photos by our designer"
      })
      const postsBefore = fake.posts.length
      // The poll goes out; the images go up (a ready checkpoint) and are posted on the next pass, a second later.
      expect(await pass()).toBe(2)
      later(1000)
      expect(await pass()).toBe(1)
      const [pollPost, picturesPost] = fake.posts.slice(postsBefore)
      expect(pollPost).toMatchObject({
        author: "urn:li:organization:2414183",
        rendered: `Which launch date works? (${backend})`
      })
      expect(pollPost.content.poll).toEqual({
        question: `Which launch date works? (${backend})`,
        options: [{ text: "Monday" }, { text: "Friday" }],
        settings: { duration: "SEVEN_DAYS" }
      })
      expect(picturesPost).toMatchObject({
        author: "urn:li:person:m-alice",
        rendered: `Two pictures from the offsite #team (${backend})`,
        hashtags: ["team"]
      })
      expect(picturesPost.content.multiImage.images).toHaveLength(2)
      expect((await view(poll)).targets[0]).toMatchObject({
        status: "published",
        externalId: pollPost.urn,
        url: `https://www.linkedin.com/feed/update/${pollPost.urn}/`
      })
      expect((await view(pictures)).targets[0]).toMatchObject({ status: "published", externalId: picturesPost.urn })
      later(10_000)
      expect(await pass()).toBe(1)
      expect(fake.comments.at(-1)).toMatchObject({
        post: picturesPost.urn,
        actor: "urn:li:person:m-alice",
        text: "Photos by our designer"
      })
      expect((await view(pictures)).targets[0].firstComment).toMatchObject({
        status: "published",
        externalId: fake.comments.at(-1)!.urn
      })
    })

    it("renews the member's expired token with the refresh token; a grant the member revoked (401 65601) needs reconnection at once, with no renewal attempt", async () => {
      fake.expireAccess("m-alice")
      const id = await post({ accountIds: [memberId], content: `After the token ended (${backend})` })
      await pass()
      expect((await view(id)).status).toBe("published")
      expect(fake.calls("POST", "/oauth/v2/accessToken").at(-1)!.body).toMatchObject({ grant_type: "refresh_token" })
      // Reconnected: both accounts hold the fresh token again.
      expect((await connect("m-alice")).map((a) => a.id)).toEqual([memberId, pageId])
      fake.revoke("m-alice")
      const revoked = await post({ accountIds: [pageId], content: `After revocation (${backend})` })
      const requests = fake.requests.length
      await pass()
      expect((await view(revoked)).targets[0]).toMatchObject({
        status: "failed",
        error: { code: "account_needs_reconnection" }
      })
      expect(fake.requests.slice(requests).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /rest/posts"])
      const accounts = await call(host, "GET", "/accounts", { key })
      expect(accounts.body.accounts.find((a: any) => a.id === pageId).status).toBe("needs_reconnection")
    })
    it("without refresh tokens: a dry run warns of a post due after the token's end, and the account needs reconnecting ahead of it, with no call to LinkedIn", async () => {
      fake.state.refreshTokens = false
      const [bob] = await connect("m-bob")
      fake.state.refreshTokens = true
      const tokenEnd = Date.now() + ahead + 5_184_000_000
      const due = new Date(tokenEnd + 86_400_000).toISOString()
      const dry = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [bob.id], content: "Far ahead", scheduledFor: due, dryRun: true }
      })
      expect(dry.status).toBe(200)
      const warning = dry.body.warnings.find((w: string) => w.includes(bob.id))
      expect(warning).toContain("can post only until")
      expect(warning).toContain("GET /connect/linkedin")
      const soon = await call(host, "POST", "/posts", {
        key,
        body: {
          accountIds: [bob.id],
          content: "Soon",
          scheduledFor: new Date(Date.now() + ahead + 86_400_000).toISOString(),
          dryRun: true
        }
      })
      expect(soon.body.warnings.some((w: string) => w.includes(bob.id))).toBe(false)
      // The member with a refresh token renews: no warning for the same time.
      const renewable = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [memberId], content: "Far ahead", scheduledFor: due, dryRun: true }
      })
      expect(renewable.body.warnings.some((w: string) => w.includes(memberId))).toBe(false)

      // Four minutes before the 60 days end, the token is not used for a post any more.
      later(5_184_000_000 - 4 * 60_000)
      const id = await post({ accountIds: [bob.id], content: `Too late (${backend})` })
      const calls = fake.requests.length
      await pass()
      expect((await view(id)).targets[0]).toMatchObject({
        status: "failed",
        error: { code: "account_needs_reconnection" }
      })
      expect(fake.requests.length).toBe(calls)
      const accounts = await call(host, "GET", "/accounts", { key })
      expect(accounts.body.accounts.find((a: any) => a.id === bob.id).status).toBe("needs_reconnection")
    })
  }
)
