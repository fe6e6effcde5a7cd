import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { pacificMidnightAfter } from "../../../adapters/networks/youtube/quota.ts"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"
import {
  accountOf,
  CHUNK,
  connect,
  publishedOf,
  publishThrough,
  request,
  setNow,
  T0,
  upload,
  youTubeOn
} from "./support.ts"
import { viewOf } from "../shared/reason.ts"

let fake: FakeYouTube
beforeAll(async () => void (fake = await startFakeYouTube()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "g-alice", over: Parameters<typeof youTubeOn>[1] = {}) =>
  Effect.gen(function* () {
    yield* setNow(fake, T0 + ++day * 86_400_000)
    fake.state.processingPolls = 2
    const { network, blobs } = yield* youTubeOn(fake, over)
    const connection = yield* connect(fake, network, as)
    return {
      network,
      blobs,
      publisher: network.publisher,
      credentials: connection.credentials!,
      account: accountOf(connection)
    }
  })

const sessionOf = (handle: string) => JSON.parse(handle).session as string
const uploadId = (handle: string) => new URL(sessionOf(handle)).searchParams.get("upload_id")!

describe("YouTube's quota day", () => {
  it("ends at midnight Pacific time, daylight saving included", () => {
    assert.strictEqual(
      new Date(pacificMidnightAfter(Date.parse("2026-11-21T10:00:00Z"))).toISOString(),
      "2026-11-22T08:00:00.000Z"
    )
    assert.strictEqual(
      new Date(pacificMidnightAfter(Date.parse("2026-11-22T07:59:59Z"))).toISOString(),
      "2026-11-22T08:00:00.000Z"
    )
    assert.strictEqual(
      new Date(pacificMidnightAfter(Date.parse("2026-07-04T06:59:00Z"))).toISOString(),
      "2026-07-04T07:00:00.000Z"
    )
    // The night the clocks go back (2026-11-01): the day ends at 08:00 UTC.
    assert.strictEqual(
      new Date(pacificMidnightAfter(Date.parse("2026-10-31T18:00:00Z"))).toISOString(),
      "2026-11-01T07:00:00.000Z"
    )
    assert.strictEqual(
      new Date(pacificMidnightAfter(Date.parse("2026-11-01T12:00:00Z"))).toISOString(),
      "2026-11-02T08:00:00.000Z"
    )
  })
})

describe("YouTube publisher against the fake YouTube", () => {
  it.effect(
    "prepare starts a resumable session (the handle, before any byte); publish sends 256 KiB chunks across requests, sets the cover as thumbnail, and polls processing",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const video = yield* upload(blobs, "video", "video/mp4", 2 * CHUNK + 175_000)
        const cover = yield* upload(blobs, "image", "image/png", 40_000)
        const req = request(account, credentials, {
          media: [video.media],
          cover: { mediaId: cover.media.id },
          coverMedia: cover.media
        })
        const start = fake.requests.length
        const handle = yield* publisher.prepare!(req)
        const [init] = fake.requests.slice(start)
        assert.strictEqual(fake.requests.length, start + 1, "prepare only opens the session")
        assert.deepStrictEqual(init.query, { uploadType: "resumable", part: "snippet,status" })
        assert.strictEqual(init.headers["x-upload-content-length"], String(2 * CHUNK + 175_000))
        assert.strictEqual(init.headers["x-upload-content-type"], "video/mp4")
        assert.deepStrictEqual(init.body, {
          snippet: { title: "My first video", description: "My first video\nA longer description ‹3" },
          status: { privacyStatus: "public", selfDeclaredMadeForKids: false }
        })
        assert.strictEqual(fake.sessions.get(uploadId(handle))?.received, 0)
        const outcomes = yield* publishThrough(network, req, handle)
        assert.deepStrictEqual(
          outcomes.map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [0, 10_000, "Published"]
        )
        const sent = fake.requests
          .slice(start + 1)
          .map((r) => `${r.method} ${r.path} ${r.headers["content-range"] ?? ""}`.trim())
        assert.deepStrictEqual(sent, [
          `PUT /upload/youtube/v3/videos bytes */${2 * CHUNK + 175_000}`,
          `PUT /upload/youtube/v3/videos bytes 0-${CHUNK - 1}/${2 * CHUNK + 175_000}`,
          `PUT /upload/youtube/v3/videos bytes ${CHUNK}-${2 * CHUNK - 1}/${2 * CHUNK + 175_000}`,
          `PUT /upload/youtube/v3/videos bytes ${2 * CHUNK}-${2 * CHUNK + 174_999}/${2 * CHUNK + 175_000}`,
          "POST /upload/youtube/v3/thumbnails/set",
          "GET /youtube/v3/videos",
          "GET /youtube/v3/videos"
        ])
        const { externalId, url } = publishedOf(outcomes.at(-1)!)
        assert.strictEqual(url, `https://www.youtube.com/watch?v=${externalId}`)
        const made = fake.videos.get(externalId)!
        assert.strictEqual(made.sha256, video.sha256)
        assert.deepStrictEqual(made.thumbnail, { bytes: 40_000, type: "image/png" })
        assert.strictEqual(fake.videos.size, 1)
      })
  )

  it.effect("the youtube options: title, privacy, made for kids, tags", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      const video = yield* upload(blobs, "video", "video/quicktime", 1000)
      yield* publisher.prepare!(
        request(account, credentials, {
          media: [video.media],
          content: "Behind the scenes",
          options: {
            youtube: { title: "Making of", privacyStatus: "unlisted", madeForKids: true, tags: ["making of", "herald"] }
          }
        })
      )
      assert.deepStrictEqual(fake.calls("POST", "/upload/youtube/v3/videos").at(-1)!.body, {
        snippet: { title: "Making of", description: "Behind the scenes", tags: ["making of", "herald"] },
        status: { privacyStatus: "unlisted", selfDeclaredMadeForKids: true }
      })
    })
  )

  it.effect(
    "a lost answer mid-upload keeps the session: asked where it stands, the upload resumes from there and makes one video",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const video = yield* upload(blobs, "video", "video/mp4", 3 * CHUNK + 10)
        const req = request(account, credentials, { media: [video.media] })
        const handle = yield* publisher.prepare!(req)
        // The second chunk arrives, but its answer is lost.
        fake.script("PUT", "/upload/youtube/v3/videos", { status: 200, dropAnswer: true })
        fake.script("PUT", "/upload/youtube/v3/videos", { status: 200, dropAnswer: true })
        const before = fake.requests.length
        const interrupted = yield* publisher.publish(req, handle)
        assert.deepStrictEqual(interrupted, { _tag: "Processing", handle, checkAfterMs: 30_000 })
        assert.strictEqual(fake.sessions.get(uploadId(handle))?.received, CHUNK)
        assert.deepStrictEqual(yield* publisher.recover!(req, handle), { _tag: "NotPublished" })
        const outcomes = yield* publishThrough(network, req, handle)
        const ranges = fake.requests.slice(before).map((r) => r.headers["content-range"])
        assert.deepStrictEqual(ranges.slice(-6, -2), [
          `bytes */${3 * CHUNK + 10}`,
          `bytes ${CHUNK}-${2 * CHUNK - 1}/${3 * CHUNK + 10}`,
          `bytes ${2 * CHUNK}-${3 * CHUNK - 1}/${3 * CHUNK + 10}`,
          `bytes ${3 * CHUNK}-${3 * CHUNK + 9}/${3 * CHUNK + 10}`
        ])
        const { externalId } = publishedOf(outcomes.at(-1)!)
        assert.strictEqual(fake.videos.get(externalId)?.sha256, video.sha256)
        assert.strictEqual([...fake.videos.values()].filter((v) => v.sha256 === video.sha256).length, 1)
      })
  )

  it.effect(
    "a crash in the middle of an upload (the worker stops mid-chunk): recovery asks the session, the upload resumes, no second video",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const video = yield* upload(blobs, "video", "video/mp4", 4 * CHUNK)
        const req = request(account, credentials, { media: [video.media] })
        const handle = yield* publisher.prepare!(req)
        // Two chunks go through, the third hangs; then the worker dies.
        fake.state.stallAtByte = 2 * CHUNK
        const running = yield* Effect.forkChild(TestClock.withLive(publisher.publish(req, handle)))
        yield* TestClock.withLive(
          Effect.gen(function* () {
            while (!fake.hasStalled()) yield* Effect.sleep(5)
          })
        )
        const crashed = yield* Fiber.interrupt(running).pipe(Effect.andThen(Fiber.await(running)))
        assert.isTrue(Exit.isFailure(crashed) && Cause.hasInterruptsOnly(crashed.cause))
        fake.releaseStalled()
        assert.strictEqual(fake.sessions.get(uploadId(handle))?.received, 2 * CHUNK)
        // The next worker: the checkpoint is the session; recovery and publish go on from it.
        assert.deepStrictEqual(yield* publisher.recover!(req, handle), { _tag: "NotPublished" })
        const outcomes = yield* publishThrough(network, req, handle)
        const { externalId } = publishedOf(outcomes.at(-1)!)
        assert.strictEqual(fake.videos.get(externalId)?.sha256, video.sha256)
        assert.strictEqual([...fake.videos.values()].filter((v) => v.sha256 === video.sha256).length, 1)
        assert.strictEqual(
          fake
            .calls("POST", "/upload/youtube/v3/videos")
            .filter((r) => r.headers["x-upload-content-length"] === String(4 * CHUNK)).length,
          1,
          "one session"
        )
      })
  )

  it.effect(
    "a session that expired before the video was complete is started again (the handle dropped); a finished one answers its video",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        const video = yield* upload(blobs, "video", "video/mp4", 1000)
        const req = request(account, credentials, { media: [video.media] })
        const handle = yield* publisher.prepare!(req)
        fake.script("PUT", "/upload/youtube/v3/videos", {
          status: 410,
          body: { error: { code: 410, message: "Gone", errors: [{ reason: "gone" }] } }
        })
        const expired = yield* Effect.flip(publisher.publish(req, handle))
        assert.deepInclude(expired, { code: "upstream_unavailable", retryable: true })
        assert.include(expired.message, "expired")
        const done = yield* publisher.publish(req, handle)
        assert.strictEqual(done._tag, "Processing")
        // Asked again, the finished session names its video: no bytes are sent.
        const puts = fake.calls("PUT", "/upload/youtube/v3/videos").length
        const again = yield* publisher.publish(req, handle)
        assert.strictEqual(again._tag, "Processing")
        assert.strictEqual(fake.calls("PUT", "/upload/youtube/v3/videos").length, puts + 1)
        assert.strictEqual(
          again._tag === "Processing" && JSON.parse(again.handle).videoId,
          done._tag === "Processing" && JSON.parse(done.handle).videoId
        )
      })
  )

  it.effect("an unverified channel's thumbnail is refused: the video is published with YouTube's own frame", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected("g-bob")
      const video = yield* upload(blobs, "video", "video/mp4", 5000)
      const cover = yield* upload(blobs, "image", "image/jpeg", 3000)
      const req = request(account, credentials, {
        media: [video.media],
        coverMedia: cover.media,
        cover: { mediaId: cover.media.id }
      })
      const { externalId } = publishedOf((yield* publishThrough(network, req, yield* publisher.prepare!(req))).at(-1)!)
      assert.isNull(fake.videos.get(externalId)?.thumbnail)
      assert.strictEqual(fake.calls("POST", "/upload/youtube/v3/thumbnails/set").at(-1)!.query.videoId, externalId)
    })
  )

  it.effect(
    "a video YouTube rejects as a duplicate while processing is duplicate_content; YouTube down while polling keeps the video's handle",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        fake.state.rejectNext = "duplicate"
        fake.state.processingPolls = 1
        const req = request(account, credentials, { media: [(yield* upload(blobs, "video", "video/mp4", 2000)).media] })
        const uploaded = yield* publisher.publish(req, yield* publisher.prepare!(req))
        if (uploaded._tag !== "Processing") return assert.fail("expected Processing")
        fake.script("GET", "/youtube/v3/videos", {
          status: 503,
          body: {
            error: { code: 503, message: "The service is currently unavailable.", errors: [{ reason: "backendError" }] }
          }
        })
        assert.deepStrictEqual(yield* publisher.publish(req, uploaded.handle), {
          _tag: "Processing",
          handle: uploaded.handle,
          checkAfterMs: 30_000
        })
        const rejected = yield* Effect.flip(publisher.publish(req, uploaded.handle))
        assert.deepInclude(rejected, { code: "duplicate_content", retryable: false })
      })
  )

  it.effect("first comment: a comment thread on the video; a lost answer is found among the video's comments", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected()
      const req = request(account, credentials, { media: [(yield* upload(blobs, "video", "video/mp4", 2000)).media] })
      const { externalId: videoId } = publishedOf(
        (yield* publishThrough(network, req, yield* publisher.prepare!(req))).at(-1)!
      )
      const commentReq = request(account, credentials, {
        content: "Chapters: 0:00 intro",
        replyTo: { rootId: videoId, parentId: videoId }
      })
      const comment = publishedOf(yield* publisher.publish(commentReq, yield* publisher.prepare!(commentReq)))
      assert.deepStrictEqual(fake.calls("POST", "/youtube/v3/commentThreads").at(-1)!.body, {
        snippet: { videoId, topLevelComment: { snippet: { textOriginal: "Chapters: 0:00 intro" } } }
      })
      assert.strictEqual(fake.comments.at(-1)!.id, comment.externalId)
      const lostReq = { ...commentReq, content: "A lost comment" }
      const handle = yield* publisher.prepare!(lostReq)
      fake.script("POST", "/youtube/v3/commentThreads", { status: 200, dropAnswer: true })
      assert.isTrue(Exit.isFailure(yield* Effect.exit(publisher.publish(lostReq, handle))))
      assert.deepStrictEqual(yield* publisher.recover!(lostReq, handle), {
        _tag: "Published",
        published: { externalId: fake.comments.at(-1)!.id, url: null }
      })
    })
  )

  it.effect(
    "quota: YouTube's quotaExceeded waits until midnight Pacific without calling again; the day's upload cap is counted here, and a dry run says both",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected("g-alice", { dailyUploads: 2 })
        const now = fake.state.clock!
        const midnight = pacificMidnightAfter(now)
        // 10:00 UTC is 02:00 in Los Angeles (PST): the quota day ends at 08:00 UTC the next day.
        assert.strictEqual(midnight, Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 + 8 * 3600_000)
        const req = request(account, credentials, { media: [(yield* upload(blobs, "video", "video/mp4", 2000)).media] })
        yield* publisher.prepare!(req)
        yield* publisher.prepare!(req)
        const starts = fake.calls("POST", "/upload/youtube/v3/videos").length
        const capped = yield* Effect.flip(publisher.prepare!(req))
        assert.deepInclude(viewOf(capped), {
          code: "rate_limited",
          reason: "RateLimited",
          retryAfterMs: midnight - now
        })
        assert.strictEqual(fake.calls("POST", "/upload/youtube/v3/videos").length, starts, "not called")
        const advice = yield* publisher.advise!(account, now, { media: req.media, options: {} })
        assert.deepStrictEqual(advice, [
          "YouTube will show this video as a Short: it is square (10×10) and runs 5 s, at most 3 minutes. Shorts have no flag in the API; shape and length decide.",
          // One unit: the channel read when connecting.
          `YouTube: this server has used 2 of 2 uploads and 1 of 10000 quota units today; the quota resets at midnight Pacific time (${new Date(midnight).toISOString()}).`,
          `YouTube's daily uploads are used up for @alicemakes: the video waits until ${new Date(midnight).toISOString()}.`
        ])
        assert.lengthOf(
          yield* publisher.advise!(account, midnight + 1000, { media: req.media, options: {} }),
          2,
          "a post due after the reset does not wait"
        )

        // The next Pacific day: YouTube itself says the project's quota is used up.
        yield* setNow(fake, midnight)
        fake.script("GET", "/youtube/v3/commentThreads", {
          status: 403,
          body: {
            error: {
              code: 403,
              message: "The request cannot be completed because you have exceeded your quota.",
              errors: [{ message: "quota", domain: "youtube.quota", reason: "quotaExceeded" }]
            }
          }
        })
        const commentReq = request(account, credentials, { content: "c", replyTo: { rootId: "v1", parentId: "v1" } })
        const said = yield* Effect.flip(publisher.recover!(commentReq, yield* publisher.prepare!(commentReq)))
        assert.deepInclude(viewOf(said), {
          reason: "RateLimited",
          retryAfterMs: pacificMidnightAfter(midnight) - midnight
        })
        assert.include(said.message, "exceeded your quota")
        const calls = fake.requests.length
        assert.isTrue((yield* Effect.flip(publisher.publish(commentReq))).reason._tag === "RateLimited")
        assert.strictEqual(fake.requests.length, calls)
      })
  )

  it.effect("an expired access token is unauthorized (renewed by the pipeline), also while processing", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      const req = request(account, credentials, { media: [(yield* upload(blobs, "video", "video/mp4", 2000)).media] })
      const uploaded = yield* publisher.publish(req, yield* publisher.prepare!(req))
      fake.expireAccess("g-alice")
      const error = yield* Effect.flip(
        publisher.publish(req, uploaded._tag === "Processing" ? uploaded.handle : undefined)
      )
      assert.deepInclude(viewOf(error), { code: "account_needs_reconnection", reason: "Unauthorized" })
      assert.include(error.message, "invalid authentication credentials")
    })
  )
})
