import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

/**
 * The three Meta networks end to end: the real HTTP host (in memory, and on PostgreSQL) configured
 * by the FACEBOOK_*, INSTAGRAM_*, THREADS_* and META_GRAPH_VERSION variables to talk to the fake
 * Graph API, which fetches the media from Herald's own signed /files/ links, and the publishing
 * pipeline driven one pass at a time on a clock the test moves (shared with the fake).
 */
let fake: FakeGraph
let mp4: Buffer
let host: HttpHost | null = null
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "herald-meta-video-"))
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=240x426:rate=15",
    "-t",
    "1",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    join(dir, "reel.mp4")
  ])
  mp4 = readFileSync(join(dir, "reel.mp4"))
  rmSync(dir, { recursive: true, force: true })
  fake = await startFakeGraph()
  // Herald says its links are under http://herald.test; the fake fetches them from the host under test.
  fake.state.rewriteMediaUrl = (url) => (host === null ? url : host.local(url))
  // Effect's default ConfigProvider copies the environment at its first use: one fake for both hosts, each with its own people.
  Object.assign(process.env, fake.env())
})
afterAll(() => fake?.close())

const jpeg = (color: string) =>
  sharp({ create: { width: 64, height: 80, channels: 3, background: color } })
    .jpeg()
    .toBuffer()

describe.each([
  {
    backend: "memory",
    facebookUser: "10150000000000001",
    page: "101000000000001",
    ig: "17841400000000001",
    threadsUser: "7000000000000001"
  },
  {
    backend: "postgres",
    facebookUser: "10150000000000002",
    page: "101000000000005",
    ig: "17841400000000005",
    threadsUser: "7000000000000002"
  }
])(
  "Facebook, Instagram and Threads end to end on the $backend host",
  ({ backend, facebookUser, page, ig, threadsUser }) => {
    let key = ""
    let ahead = 0
    const accounts: Record<string, { id: string; platform: string; name: string; username: string; status: string }> =
      {}

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
          body: { name: "Meta agent", requireApproval: false }
        })
      ).body.apiKey
    }, 60_000)
    afterAll(async () => {
      await host?.close()
      host = null
    })

    const h = () => host!
    /** Moves Herald's and Meta's time `ms` ahead of the real clock. */
    const later = (ms: number) => {
      ahead += ms
      fake.state.offsetMs = ahead
    }
    /** One pass of the publishing worker at the moved time: what is due runs to an outcome. */
    const pass = () =>
      h().run(
        Effect.gen(function* () {
          yield* TestClock.setTime(Date.now() + ahead)
          return yield* publishDueTargets(defaultPipelineOptions, 50)
        }).pipe(Effect.provide(TestClock.layer()))
      )
    /** Passes a minute apart until `done`, at most `max`. */
    const until = async (done: () => Promise<boolean>, max = 20) => {
      for (let i = 0; i < max && !(await done()); i++) {
        later(60_000)
        await pass()
      }
    }

    /** The browser: GET /connect/{platform}, open its URL at Meta, follow the redirect back to Herald's callback. */
    const connectVia = async (platform: string) => {
      const link = await call(h(), "GET", `/connect/${platform}`, { key })
      expect(link.status, JSON.stringify(link.body)).toBe(200)
      const { next, cookie } = await continueConnectLink(h().local(link.body.url))
      const atMeta = await fetch(next, { redirect: "manual" })
      expect(atMeta.status).toBe(302)
      const back = await fetch(h().local(atMeta.headers.get("location")!), {
        headers: { accept: "application/json", cookie }
      })
      const body = (await back.json()) as any
      expect(back.status, JSON.stringify(body)).toBe(200)
      return body.accounts as Array<{ id: string; platform: string; name: string; username: string; status: string }>
    }
    const stored = (accountId: string) =>
      h().run(
        Effect.gen(function* () {
          const sealed = Option.getOrThrow(yield* (yield* CredentialStore).get(accountId)).sealed
          return { sealed, open: JSON.parse(yield* (yield* TokenVault).open(sealed)) as NetworkCredentials }
        })
      )
    const uploadFile = async (bytes: Buffer, type: string, name: string) => {
      const form = new FormData()
      form.append("file", new Blob([bytes], { type }), name)
      const uploaded = await fetch(`${h().base}/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form
      })
      expect(uploaded.status).toBe(201)
      return ((await uploaded.json()) as any).media.id as string
    }
    const post = async (body: Record<string, unknown>) => {
      const reply = await call(h(), "POST", "/posts", { key, body })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body.post.id as string
    }
    const view = async (id: string) => (await call(h(), "GET", `/posts/${id}`, { key })).body.post

    it("connects the person's Pages and their linked Instagram account through Facebook's dialog; only Page tokens are stored, sealed", async () => {
      fake.state.facebookUser = facebookUser
      const connected = await connectVia("facebook")
      const pageAccount = connected.find((a) => a.platform === "facebook" && a.name === fake.pages.get(page)!.name)!
      const igAccount = connected.find((a) => a.platform === "instagram")!
      expect(pageAccount).toMatchObject({ status: "connected" })
      expect(igAccount).toMatchObject({ username: fake.igUsers.get(ig)!.username, status: "connected" })
      accounts.page = pageAccount
      accounts.ig = igAccount
      for (const account of connected) {
        const { sealed, open } = await stored(account.id)
        expect(fake.tokenInfo(open.accessToken)).toMatchObject({ kind: "page", expiresAt: null })
        for (const token of fake.issuedTokens()) expect(sealed).not.toContain(token)
      }
      const listed = await call(h(), "GET", "/accounts", { key })
      expect(listed.body.accounts.map((a: any) => a.platform).sort()).toEqual(connected.map((a) => a.platform).sort())
    })

    it("connects a Threads profile with a long-lived token", async () => {
      fake.state.threadsUser = threadsUser
      const [threads] = await connectVia("threads")
      expect(threads).toMatchObject({ platform: "threads", status: "connected" })
      accounts.threads = threads!
      const { open } = await stored(threads!.id)
      expect(fake.tokenInfo(open.accessToken)).toMatchObject({ kind: "threads-user" })
      expect(open.expiresAt).toBeGreaterThan(Date.now() + ahead + 50 * 86_400_000)
    })

    it("a dry run warns that Meta cannot fetch media from a HERALD_PUBLIC_URL that is not public, and that Instagram takes JPEG only", async () => {
      const image = await uploadFile(
        await sharp({ create: { width: 64, height: 80, channels: 3, background: "#a53" } })
          .png()
          .toBuffer(),
        "image/png",
        "a.png"
      )
      const dry = await call(h(), "POST", "/posts", {
        key,
        body: { accountIds: [accounts.ig!.id], content: "Dry", mediaIds: [image], dryRun: true }
      })
      expect(dry.status).toBe(200)
      expect(dry.body.warnings.join(" ")).toContain(
        "Instagram download media from Herald by URL, but herald.test is a name that only resolves"
      )
      expect(dry.body.warnings.join(" ")).toContain(
        "Instagram takes JPEG images only: Herald sends the others as converted copies."
      )
    })

    it("a carousel to Instagram with a first comment: published only after every container finished, the comment 10 s later", async () => {
      const images = [
        await uploadFile(await jpeg("#123"), "image/jpeg", "1.jpg"),
        await uploadFile(await jpeg("#456"), "image/jpeg", "2.jpg"),
        await uploadFile(await jpeg("#789"), "image/jpeg", "3.jpg")
      ]
      const id = await post({
        accountIds: [accounts.ig!.id],
        content: "Three loaves #bakery",
        mediaIds: images,
        firstComment: "Open 7 to 7"
      })
      const start = fake.requests.length
      expect(await pass()).toBe(1)
      expect(await pass(), "the job waits in the queue, not in a worker").toBe(0)
      expect((await view(id)).targets[0]).toMatchObject({
        status: "publishing",
        error: { code: "upstream_processing" }
      })
      await until(async () => (await view(id)).status === "published")
      const published = await view(id)
      expect(published.status).toBe("published")
      const media = fake.posts.find((p) => p.id === published.targets[0].externalId)!
      const calls = fake.requests
        .slice(start)
        .map(
          (r) =>
            `${r.method} ${r.path.replace(/\d{15,}/g, ":id")}${r.body.media_type === "CAROUSEL" ? " (carousel)" : ""}`
        )
      expect(calls.slice(0, 3)).toEqual(["POST /v26.0/:id/media", "POST /v26.0/:id/media", "POST /v26.0/:id/media"])
      const carouselAt = calls.indexOf("POST /v26.0/:id/media (carousel)")
      const publishAt = calls.indexOf("POST /v26.0/:id/media_publish")
      expect(carouselAt).toBeGreaterThan(3)
      expect(publishAt).toBeGreaterThan(carouselAt + 1)
      expect(calls.filter((c) => c.endsWith("media_publish"))).toHaveLength(1)
      // Each container's status was asked once a pass until FINISHED (2 polls each here): recovering between polls asks nothing. The
      // carousel's is asked once more, before its publish, by the recovery of the "ready" checkpoint (a publish may follow it).
      const statusCalls = (c: string) =>
        fake.requests.slice(start).filter((r) => r.method === "GET" && r.path.endsWith(`/${c}`)).length
      expect(media.children.map(statusCalls)).toEqual(media.children.map(() => fake.state.containerPolls))
      expect(statusCalls(media.container!)).toBe(fake.state.containerPolls + 1)
      // Meta fetched every item from Herald's signed links (through Herald's own /files route).
      const itemUrls = fake.requests.slice(start, start + 3).map((r) => String(r.body.image_url))
      for (const url of itemUrls) {
        expect(url).toMatch(/^http:\/\/herald\.test\/files\/.+\?expires=\d+&signature=/)
        expect(fake.fetches.filter((f) => f.url === url).map((f) => f.status)).toEqual([200])
      }
      expect(media).toMatchObject({ kind: "media", mediaType: "CAROUSEL", text: "Three loaves #bakery" })
      expect(published.targets[0].url).toMatch(/^https:\/\/www\.instagram\.com\/p\//)
      later(10_000)
      expect(await pass()).toBe(1)
      const comment = fake.posts.at(-1)!
      expect(comment).toMatchObject({ kind: "comment", replyTo: media.id, text: "Open 7 to 7" })
      expect((await view(id)).targets[0].firstComment).toMatchObject({ status: "published", externalId: comment.id })
    })

    it("a reel with a cover image", async () => {
      const video = await uploadFile(mp4, "video/mp4", "reel.mp4")
      const cover = await uploadFile(await jpeg("#fc0"), "image/jpeg", "cover.jpg")
      const id = await post({
        accountIds: [accounts.ig!.id],
        content: "Behind the oven",
        mediaIds: [video],
        cover: { mediaId: cover }
      })
      await pass()
      await until(async () => (await view(id)).status === "published")
      expect((await view(id)).status).toBe("published")
      const reel = fake.calls("POST", `/v26.0/${ig}/media`).at(-1)!
      expect(reel.body).toMatchObject({ media_type: "REELS", caption: "Behind the oven", share_to_feed: "true" })
      expect(fake.fetches.find((f) => f.url === reel.body.cover_url)).toMatchObject({ status: 200, type: "image/jpeg" })
      expect(fake.fetches.find((f) => f.url === reel.body.video_url)).toMatchObject({ status: 200, bytes: mp4.length })
    })

    it("an Instagram story: instagram.story kept with the post to the worker, one STORIES container with no caption; a story with a first comment is refused", async () => {
      const image = await uploadFile(await jpeg("#0af"), "image/jpeg", "story.jpg")
      const refused = await call(h(), "POST", "/posts", {
        key,
        body: { accountIds: [accounts.ig!.id], mediaIds: [image], firstComment: "Link", instagram: { story: true } }
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toMatchObject({
        code: "validation_failed",
        details: { fields: ["instagram.story", "firstComment"] }
      })
      const id = await post({
        accountIds: [accounts.ig!.id],
        content: "Fresh today",
        mediaIds: [image],
        instagram: { story: true }
      })
      await pass()
      await until(async () => (await view(id)).status === "published")
      const published = (await view(id)).targets[0]
      expect(published.status).toBe("published")
      const story = fake.calls("POST", `/v26.0/${ig}/media`).at(-1)!
      expect(story.body).toMatchObject({ media_type: "STORIES" })
      expect(story.body).not.toHaveProperty("caption")
      expect(fake.posts.find((p) => p.id === published.externalId)).toMatchObject({ kind: "story" })
      expect(published.url).toMatch(/^https:\/\/www\.instagram\.com\/stories\//)
    })

    it("a text post with a link to the Page, as the Page", async () => {
      const id = await post({
        accountIds: [accounts.page!.id],
        content: `New menu at https://bakery.example/menu/${backend}`
      })
      expect(await pass()).toBe(1)
      const published = await view(id)
      expect(published.status).toBe("published")
      const feed = fake.calls("POST", `/v26.0/${page}/feed`).at(-1)!
      expect(feed.body).toMatchObject({
        message: `New menu at https://bakery.example/menu/${backend}`,
        link: `https://bakery.example/menu/${backend}`
      })
      expect(fake.tokenInfo(String(feed.headers.authorization).replace(/^Bearer /, ""))).toMatchObject({
        kind: "page",
        subject: page
      })
      expect(published.targets[0]).toMatchObject({
        externalId: expect.stringMatching(new RegExp(`^${page}_`)),
        url: `https://www.facebook.com/${published.targets[0].externalId}`
      })
    })

    it("a reel to the Page: the dry run advises on it, facebook.reel without a video is validation_failed, and the reel goes out through video_reels", async () => {
      const video = await uploadFile(mp4, "video/mp4", "reel.mp4")
      const reel = {
        accountIds: [accounts.page!.id],
        content: `Oven reel (${backend})`,
        mediaIds: [video],
        facebook: { reel: true }
      }
      const dry = await call(h(), "POST", "/posts", { key, body: { ...reel, dryRun: true } })
      expect(dry.status, JSON.stringify(dry.body)).toBe(200)
      const warnings = dry.body.targets[0].warnings as Array<string>
      expect(warnings).toContain(
        `Facebook: this server published 0 of the 30 reels a Page may publish in 24 hours to ${accounts.page!.username}.`
      )
      expect(
        warnings.some((w) => /^Facebook reels run 3-90 s: this video runs 1(\.\d)? s/.test(w)),
        warnings.join(" | ")
      ).toBe(true)
      const noVideo = await call(h(), "POST", "/posts", {
        key,
        body: { accountIds: [accounts.page!.id], content: "A reel without video", facebook: { reel: true } }
      })
      expect(noVideo.status).toBe(400)
      expect(noVideo.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["facebook.reel"] } })

      const id = await post(reel)
      const start = fake.requests.length
      await pass()
      await until(async () => (await view(id)).status === "published")
      const published = await view(id)
      expect(published.status).toBe("published")
      const calls = fake.requests
        .slice(start)
        .filter((r) => r.path.includes(page) || r.path.startsWith("/video-upload/"))
      const finish = calls.find((r) => r.body.upload_phase === "finish")!
      const rupload = calls.find((r) => r.path.startsWith("/video-upload/"))!
      expect(calls.filter((r) => r.body.upload_phase === "start")).toHaveLength(1)
      expect(calls.filter((r) => r.path.startsWith("/video-upload/"))).toHaveLength(1)
      expect(finish.body).toMatchObject({ video_state: "PUBLISHED", description: `Oven reel (${backend})` })
      expect(rupload.headers.file_url).toMatch(/^http:\/\/herald\.test\/files\/.+\?expires=\d+&signature=/)
      expect(fake.fetches.find((f) => f.url === rupload.headers.file_url)).toMatchObject({
        status: 200,
        bytes: mp4.length
      })
      expect(fake.tokenInfo(rupload.headers.authorization!.replace(/^OAuth /, ""))).toMatchObject({
        kind: "page",
        subject: page
      })
      const videoId = String(finish.body.video_id)
      expect(published.targets[0]).toMatchObject({
        externalId: videoId,
        url: `https://www.facebook.com/reel/${videoId}`
      })
      expect(fake.videos.get(videoId)).toMatchObject({ reel: true, finished: true, status: "ready" })
    })

    it("a Threads thread: each reply a container replying to the one before, published in order", async () => {
      const id = await post({
        accountIds: [accounts.threads!.id],
        content: `Bread, a thread (${backend})`,
        thread: ["First, the flour", "Then, the oven"]
      })
      await pass()
      await until(async () => (await view(id)).status === "published", 30)
      const published = await view(id)
      expect(published.status).toBe("published")
      const target = published.targets[0]
      const [root, second, third] = [target.externalId, ...target.thread.map((r: any) => r.externalId)].map(
        (x: string) => fake.posts.find((p) => p.id === x)!
      )
      expect([root!.text, second!.text, third!.text]).toEqual([
        `Bread, a thread (${backend})`,
        "First, the flour",
        "Then, the oven"
      ])
      expect([root!.replyTo, second!.replyTo, third!.replyTo]).toEqual([null, root!.id, second!.id])
    })

    it("a token revoked on Meta's side: the Page needs reconnection after one refused call, with no retry and no renewal", async () => {
      fake.revoke(facebookUser)
      const id = await post({ accountIds: [accounts.page!.id], content: "After the password change" })
      const start = fake.requests.length
      await pass()
      const failed = (await view(id)).targets[0]
      expect(failed).toMatchObject({ status: "failed", error: { code: "account_needs_reconnection" } })
      expect(failed.error.message).toContain("Error validating access token")
      expect(fake.requests.slice(start).map((r) => `${r.method} ${r.path}`)).toEqual([`POST /v26.0/${page}/feed`])
      const listed = await call(h(), "GET", "/accounts", { key })
      expect(listed.body.accounts.find((a: any) => a.id === accounts.page!.id).status).toBe("needs_reconnection")
      later(3_600_000)
      await pass()
      expect(fake.requests.length).toBe(start + 1)
    })
  }
)
