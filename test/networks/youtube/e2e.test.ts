import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

const CHUNK = 256 * 1024

/**
 * YouTube end to end: the real HTTP host (in memory, and on PostgreSQL) configured by YOUTUBE_*
 * variables to talk to the fake YouTube, and the publishing pipeline driven one pass at a time on a
 * clock the test moves (the fake shares it).
 */
let fake: FakeYouTube
let mp4: Buffer
let verticalMp4: Buffer
let jpeg: Buffer
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "herald-yt-video-"))
  // About 1 MB: four 256 KiB chunks.
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=640x360:rate=25",
    "-t",
    "3",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-b:v",
    "2500k",
    join(dir, "clip.mp4")
  ])
  mp4 = readFileSync(join(dir, "clip.mp4"))
  // A vertical 2 s clip: what YouTube files as a Short.
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=360x640:rate=25",
    "-t",
    "2",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    join(dir, "short.mp4")
  ])
  verticalMp4 = readFileSync(join(dir, "short.mp4"))
  rmSync(dir, { recursive: true, force: true })
  jpeg = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#c33" } })
    .jpeg()
    .toBuffer()
  fake = await startFakeYouTube()
  Object.assign(process.env, {
    YOUTUBE_CLIENT_ID: fake.clientId,
    YOUTUBE_CLIENT_SECRET: fake.clientSecret,
    YOUTUBE_AUTHORIZE_URL: fake.authorizeUrl,
    YOUTUBE_TOKEN_URL: fake.tokenUrl,
    YOUTUBE_API_URL: fake.origin,
    YOUTUBE_CHUNK_BYTES: String(CHUNK)
  })
})
afterAll(() => fake?.close())

describe.each([{ backend: "memory" }, { backend: "postgres" }])(
  "YouTube end to end on the $backend host",
  ({ backend }) => {
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
      key = (
        await call(host, "POST", "/keys", {
          cookie,
          headers: { "x-csrf-token": csrf },
          body: { name: "YouTube agent", requireApproval: false }
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
    const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post
    const uploadFile = async (bytes: Buffer, type: string, name: string) => {
      const form = new FormData()
      form.append("file", new Blob([bytes], { type }), name)
      const reply = await fetch(`${host.base}/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form
      })
      expect(reply.status).toBe(201)
      return ((await reply.json()) as any).media.id as string
    }

    it("connects the channel through the browser flow", async () => {
      fake.state.authorizeAs = "g-alice"
      const link = await call(host, "GET", "/connect/youtube", { key })
      const { next, cookie } = await continueConnectLink(host.local(link.body.url))
      const atGoogle = await fetch(next, { redirect: "manual" })
      expect(atGoogle.status).toBe(302)
      const back = await fetch(host.local(atGoogle.headers.get("location")!), {
        headers: { accept: "application/json", cookie }
      })
      const body = (await back.json()) as any
      expect(back.status, JSON.stringify(body)).toBe(200)
      expect(body.account).toMatchObject({
        platform: "youtube",
        name: "Alice Makes Things",
        username: "@alicemakes",
        status: "connected"
      })
      accountId = body.account.id
    })

    it("a dry run says whether YouTube will file the video as a Short, from the upload's probed shape and length", async () => {
      const vertical = await uploadFile(verticalMp4, "video/mp4", "short.mp4")
      const wide = await uploadFile(mp4, "video/mp4", "clip.mp4")
      const dryRun = async (mediaId: string) => {
        const dry = await call(host, "POST", "/posts", {
          key,
          body: { accountIds: [accountId], content: "Short or not", mediaIds: [mediaId], dryRun: true }
        })
        expect(dry.status, JSON.stringify(dry.body)).toBe(200)
        return dry.body.targets[0].warnings as Array<string>
      }
      expect(await dryRun(vertical)).toContain(
        "YouTube will show this video as a Short: it is vertical (360×640) and runs 2 s, at most 3 minutes. Shorts have no flag in the API; shape and length decide."
      )
      expect(await dryRun(wide)).toContain(
        "YouTube will show this video as a regular video, not a Short: it is horizontal (640×360). A Short is square or vertical and at most 3 minutes."
      )
    })

    it("publishes a video with its thumbnail and options, resuming after an answer lost mid-upload; then the first comment", async () => {
      const video = await uploadFile(mp4, "video/mp4", "clip.mp4")
      const cover = await uploadFile(jpeg, "image/jpeg", "cover.jpg")
      const body = {
        accountIds: [accountId],
        content: `Launch trailer (${backend})\nEverything we shipped this year.`,
        mediaIds: [video],
        cover: { mediaId: cover },
        youtube: { privacyStatus: "unlisted", tags: ["launch", "trailer"] },
        firstComment: "Chapters: 0:00 intro"
      }
      const dry = await call(host, "POST", "/posts", { key, body: { ...body, dryRun: true } })
      expect(dry.status).toBe(200)
      expect(
        dry.body.warnings.some((w: string) =>
          /^YouTube: this server has used \d+ of 100 uploads and \d+ of 10000 quota units today/.test(w)
        )
      ).toBe(true)
      const created = await call(host, "POST", "/posts", { key, body })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = created.body.post.id
      const start = fake.requests.length
      const videosBefore = fake.videos.size
      // The answer to the third chunk is lost: the pass keeps the session and comes back.
      fake.state.dropAnswerAtByte = 2 * CHUNK
      expect(await pass()).toBe(1)
      let sessionCalls = fake.requests.slice(start)
      expect(sessionCalls[0]).toMatchObject({
        method: "POST",
        path: "/upload/youtube/v3/videos",
        query: { uploadType: "resumable" }
      })
      expect(sessionCalls[0].body).toEqual({
        snippet: {
          title: `Launch trailer (${backend})`,
          description: `Launch trailer (${backend})\nEverything we shipped this year.`,
          tags: ["launch", "trailer"]
        },
        status: { privacyStatus: "unlisted", selfDeclaredMadeForKids: false }
      })
      for (let i = 0; i < 8 && (await view(id)).status !== "published"; i++) {
        later(30_000)
        await pass()
      }
      const published = await view(id)
      expect(published.status).toBe("published")
      const made = fake.videos.get(published.targets[0].externalId)!
      expect(made.sha256).toBe(createHash("sha256").update(mp4).digest("hex"))
      expect(made.thumbnail).toEqual({ bytes: jpeg.length, type: "image/jpeg" })
      expect(published.targets[0].url).toBe(`https://www.youtube.com/watch?v=${made.id}`)
      expect(fake.videos.size, "one video").toBe(videosBefore + 1)
      sessionCalls = fake.requests.slice(start)
      expect(sessionCalls.filter((r) => r.method === "POST" && r.path === "/upload/youtube/v3/videos")).toHaveLength(1)
      // Asked where it stood at the start and after the lost answer; the third chunk went once, the fourth after the probe.
      expect(sessionCalls.filter((r) => r.headers["content-range"]?.startsWith("bytes */"))).toHaveLength(2)
      expect(sessionCalls.filter((r) => r.headers["content-range"]?.startsWith(`bytes ${2 * CHUNK}-`))).toHaveLength(1)
      later(10_000)
      expect(await pass()).toBe(1)
      expect(fake.comments.at(-1)).toMatchObject({ videoId: made.id, text: "Chapters: 0:00 intro" })
      expect((await view(id)).targets[0].firstComment).toMatchObject({
        status: "published",
        externalId: fake.comments.at(-1)!.id
      })
    })

    it("an access token Google refuses before it ends (401) is renewed with the refresh token, and the upload goes on", async () => {
      // Google's documented handling: on 401, refresh; only a refused refresh sends the person through OAuth again.
      fake.expireAccess("g-alice")
      const video = await uploadFile(mp4, "video/mp4", "after401.mp4")
      const created = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: `After a 401 (${backend})`, mediaIds: [video] }
      })
      const requests = fake.requests.length
      for (let i = 0; i < 20 && (await view(created.body.post.id)).targets[0].status !== "published"; i++) {
        later(10_000)
        await pass()
      }
      const after = fake.requests.slice(requests).map((r) => `${r.method} ${r.path}`)
      expect(after.slice(0, 3)).toEqual([
        "POST /upload/youtube/v3/videos",
        "POST /token",
        "POST /upload/youtube/v3/videos"
      ])
      expect((await view(created.body.post.id)).targets[0]).toMatchObject({ status: "published" })
      const accounts = await call(host, "GET", "/accounts", { key })
      expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("connected")
    })

    it("a revoked grant (401, then invalid_grant) marks the account needs_reconnection with no retry loop", async () => {
      fake.revoke("g-alice")
      later(3600_000)
      const video = await uploadFile(mp4, "video/mp4", "again.mp4")
      const created = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: `After revocation (${backend})`, mediaIds: [video] }
      })
      const requests = fake.requests.length
      await pass()
      expect((await view(created.body.post.id)).targets[0]).toMatchObject({
        status: "failed",
        error: { code: "account_needs_reconnection" }
      })
      expect(fake.requests.slice(requests).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /token"])
      const accounts = await call(host, "GET", "/accounts", { key })
      expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("needs_reconnection")
    })
  }
)
