import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeTikTok, startFakeTikTok } from "./fakeTikTok.ts"
import {
  accountOf,
  connect,
  MB5,
  photo,
  publishedOf,
  publishThrough,
  request,
  setNow,
  T0,
  tiktokOn,
  video
} from "./support.ts"
import { viewOf } from "../shared/reason.ts"

let fake: FakeTikTok
beforeAll(async () => void (fake = await startFakeTikTok()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "u-alice") =>
  Effect.gen(function* () {
    yield* setNow(fake, T0 + ++day * 86_400_000)
    fake.state.downloadPolls = 2
    const { network, blobs } = yield* tiktokOn(fake)
    const connection = yield* connect(fake, network, as)
    return {
      network,
      blobs,
      publisher: network.publisher,
      credentials: connection.credentials!,
      account: accountOf(connection)
    }
  })

const paths = (since: number) =>
  fake.requests
    .slice(since)
    .map(
      (r) =>
        `${r.method} ${r.path.replace(/\/upload\/.+$/, "/upload/:id")}${r.headers["content-range"] ? ` ${r.headers["content-range"]}` : ""}`
    )

describe("TikTok publisher against the fake TikTok", () => {
  it.effect(
    "a video: creator info first, init with the creator's settings, the publish_id stored before any byte, chunks per the transfer guide, then status polls to the post",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const size = 2 * MB5 + 2_000_123
        const clip = yield* video(blobs, size)
        const req = request(account, credentials, {
          media: [clip.media],
          cover: { offsetMs: 1500 },
          tiktokAiGenerated: true,
          options: { tiktok: { privacyLevel: "MUTUAL_FOLLOW_FRIENDS" } }
        })
        const start = fake.requests.length
        const handle = yield* publisher.prepare!(req)
        assert.strictEqual(fake.requests.length, start, "prepare calls nothing")
        const first = yield* publisher.publish(req, handle)
        assert.strictEqual(first._tag, "Processing")
        if (first._tag !== "Processing") return
        assert.deepStrictEqual(paths(start), [
          "POST /v2/post/publish/creator_info/query/",
          "POST /v2/post/publish/video/init/"
        ])
        const publishId = JSON.parse(first.handle).publishId
        assert.strictEqual(
          fake.publishes.get(publishId)?.received,
          0,
          "the publish_id is the checkpoint before any byte"
        )
        assert.deepStrictEqual(fake.calls("POST", "/v2/post/publish/video/init/").at(-1)!.body, {
          post_info: {
            privacy_level: "MUTUAL_FOLLOW_FRIENDS",
            disable_comment: false,
            brand_content_toggle: false,
            brand_organic_toggle: false,
            title: "New video #herald",
            disable_duet: true,
            disable_stitch: false,
            is_aigc: true,
            video_cover_timestamp_ms: 1500
          },
          source_info: { source: "FILE_UPLOAD", video_size: size, chunk_size: MB5, total_chunk_count: 2 }
        })
        const outcomes = yield* publishThrough(network, req, first.handle)
        assert.deepStrictEqual(
          outcomes.map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [5000, 10_000, "Published"]
        )
        assert.deepStrictEqual(paths(start).slice(2), [
          "POST /v2/post/publish/status/fetch/",
          `PUT /upload/:id bytes 0-${MB5 - 1}/${size}`,
          `PUT /upload/:id bytes ${MB5}-${size - 1}/${size}`,
          "POST /v2/post/publish/status/fetch/",
          "POST /v2/post/publish/status/fetch/"
        ])
        const made = fake.publishes.get(publishId)!
        assert.strictEqual(made.sha256, clip.sha256)
        const { externalId, url } = publishedOf(outcomes.at(-1)!)
        assert.strictEqual(externalId, made.postId)
        assert.strictEqual(url, `https://www.tiktok.com/@alice.makes/video/${made.postId}`)
      })
  )

  it.effect(
    "a public post is published once moderation shows its id, with its link; a private one by its publish_id at once",
    () =>
      Effect.gen(function* () {
        const { network, credentials, account, blobs } = yield* connected()
        fake.state.moderationPolls = 3
        try {
          const open = request(account, credentials, { media: [(yield* video(blobs, 3000)).media] })
          const outcomes = yield* publishThrough(network, open)
          const publishId = JSON.parse((outcomes[0] as { handle: string }).handle).publishId
          const made = fake.publishes.get(publishId)!
          assert.strictEqual(made.postInfo.privacy_level, "PUBLIC_TO_EVERYONE")
          const { externalId, url } = publishedOf(outcomes.at(-1)!)
          assert.strictEqual(externalId, made.postId, "the post's own id, not the publish_id")
          assert.strictEqual(url, `https://www.tiktok.com/@alice.makes/video/${made.postId}`)

          const hidden = request(account, credentials, {
            media: [(yield* video(blobs, 3000)).media],
            options: { tiktok: { privacyLevel: "SELF_ONLY" } }
          })
          const privateOutcomes = yield* publishThrough(network, hidden)
          const privateId = JSON.parse((privateOutcomes[0] as { handle: string }).handle).publishId
          assert.deepStrictEqual(publishedOf(privateOutcomes.at(-1)!), { externalId: privateId, url: null })
          assert.isBelow(privateOutcomes.length, outcomes.length, "no wait for a moderation that shows no id")
        } finally {
          fake.state.moderationPolls = 0
        }
      })
  )

  it.effect(
    "a privacy level the creator does not allow is tiktok_privacy_conflict, with nothing started; without one the most public allowed level, and the creator's settings kept",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        const clip = (yield* video(blobs, 3000)).media
        const inits = fake.calls("POST", "/v2/post/publish/video/init/").length
        const conflict = yield* Effect.flip(
          publisher.publish(
            request(account, credentials, {
              media: [clip],
              options: { tiktok: { privacyLevel: "FOLLOWER_OF_CREATOR" } }
            })
          )
        )
        assert.deepInclude(conflict, { code: "tiktok_privacy_conflict", retryable: false })
        assert.include(conflict.message, "PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY")
        assert.strictEqual(fake.calls("POST", "/v2/post/publish/video/init/").length, inits)
        yield* publisher.publish(request(account, credentials, { media: [clip] }))
        assert.strictEqual(
          (fake.calls("POST", "/v2/post/publish/video/init/").at(-1)!.body as any).post_info.privacy_level,
          "PUBLIC_TO_EVERYONE"
        )
        const branded = yield* Effect.flip(
          publisher.publish(
            request(account, credentials, {
              media: [clip],
              options: { tiktok: { privacyLevel: "SELF_ONLY", brandedContent: true } }
            })
          )
        )
        assert.strictEqual(branded.code, "tiktok_privacy_conflict")
      })
  )

  it.effect(
    "a creator with comments, duets and stitches off and 60 s videos: the settings follow, a longer video is refused before init",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected("u-private")
        yield* publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 3000, 30_000)).media] }))
        assert.deepInclude((fake.calls("POST", "/v2/post/publish/video/init/").at(-1)!.body as any).post_info, {
          privacy_level: "FOLLOWER_OF_CREATOR",
          disable_comment: true,
          disable_duet: true,
          disable_stitch: true
        })
        const inits = fake.calls("POST", "/v2/post/publish/video/init/").length
        const long = yield* Effect.flip(
          publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 3000, 90_000)).media] }))
        )
        assert.deepInclude(long, { code: "upstream_rejected" })
        assert.include(long.message, "up to 60 s")
        assert.strictEqual(fake.calls("POST", "/v2/post/publish/video/init/").length, inits)
      })
  )

  it.effect(
    "a lost answer mid-upload keeps the publish_id: recovery goes through it, the upload resumes from the chunk TikTok lacks, one post",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const size = 3 * MB5 + 10
        const clip = yield* video(blobs, size)
        const req = request(account, credentials, { media: [clip.media] })
        const started = yield* publisher.publish(req, yield* publisher.prepare!(req))
        if (started._tag !== "Processing") return assert.fail("expected Processing")
        fake.script("PUT", /^\/upload\//, { status: 206, dropAnswer: true })
        const lost = yield* publisher.publish(req, started.handle)
        assert.deepStrictEqual(lost, { _tag: "Processing", handle: started.handle, checkAfterMs: 30_000 })
        assert.deepStrictEqual(yield* publisher.recover!(req, started.handle), { _tag: "NotPublished" })
        const before = fake.requests.length
        const outcomes = yield* publishThrough(network, req, started.handle)
        assert.deepStrictEqual(paths(before).slice(0, 3), [
          "POST /v2/post/publish/status/fetch/",
          `PUT /upload/:id bytes ${MB5}-${2 * MB5 - 1}/${size}`,
          `PUT /upload/:id bytes ${2 * MB5}-${size - 1}/${size}`
        ])
        publishedOf(outcomes.at(-1)!)
        const publishId = JSON.parse(started.handle).publishId
        assert.strictEqual(fake.publishes.get(publishId)?.sha256, clip.sha256)
        assert.strictEqual([...fake.publishes.values()].filter((p) => p.sha256 === clip.sha256).length, 1)
      })
  )

  it.effect("photos: JPEGs TikTok pulls from Herald's URLs, title and description, then status to the photo post", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected()
      const photos = [yield* photo(blobs), yield* photo(blobs)]
      const req = request(account, credentials, {
        content: "Weekend in the hills\nTwo photos from the top.",
        media: photos
      })
      const outcomes = yield* publishThrough(network, req, yield* publisher.prepare!(req))
      const init = fake.calls("POST", "/v2/post/publish/content/init/").at(-1)!.body as any
      assert.deepStrictEqual(init.post_info, {
        privacy_level: "PUBLIC_TO_EVERYONE",
        disable_comment: false,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        title: "Weekend in the hills",
        description: "Weekend in the hills\nTwo photos from the top.",
        auto_add_music: true
      })
      assert.deepInclude(init, { media_type: "PHOTO", post_mode: "DIRECT_POST" })
      assert.lengthOf(init.source_info.photo_images, 2)
      const made = [...fake.publishes.values()].at(-1)!
      assert.deepStrictEqual(
        made.photos.map((p) => p.type),
        ["image/jpeg", "image/jpeg"]
      )
      assert.strictEqual(publishedOf(outcomes.at(-1)!).url, `https://www.tiktok.com/@alice.makes/photo/${made.postId}`)
      // The AI label is for videos only.
      assert.strictEqual(
        (yield* Effect.flip(publisher.publish({ ...req, tiktokAiGenerated: true }))).code,
        "tiktok_ai_unsupported"
      )
      // A photo init whose answer was lost may have posted: a person decides.
      assert.deepStrictEqual(yield* publisher.recover!(req, yield* publisher.prepare!(req)), { _tag: "Unknown" })
    })
  )

  it.effect(
    "TikTok's refusals: a PNG photo fails processing; a private post has no public id; the creator who cannot post now is tiktok_cannot_post (retryable); 429 waits a minute without calling",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const png = yield* Effect.flip(
          publishThrough(network, request(account, credentials, { media: [yield* photo(blobs, "png")] }))
        )
        assert.deepInclude(png, { code: "upstream_rejected" })
        assert.include(png.message, "file_format_check_failed")
        const privately = yield* publishThrough(
          network,
          request(account, credentials, {
            media: [(yield* video(blobs, 2000)).media],
            options: { tiktok: { privacyLevel: "SELF_ONLY" } }
          })
        )
        assert.deepStrictEqual(publishedOf(privately.at(-1)!).url, null)
        assert.match(publishedOf(privately.at(-1)!).externalId, /^v_pub_file/)
        fake.creators.get("u-alice")!.cannotPost = "spam_risk_too_many_posts"
        const busy = yield* Effect.flip(
          publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
        )
        fake.creators.get("u-alice")!.cannotPost = null
        assert.deepInclude(busy, { code: "tiktok_cannot_post", retryable: true, retryAfterMs: 3600_000 })
        fake.script("POST", "/v2/post/publish/video/init/", {
          status: 429,
          body: {
            data: {},
            error: { code: "rate_limit_exceeded", message: "API rate limit was exceeded.", log_id: "x" }
          }
        })
        const limited = yield* Effect.flip(
          publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
        )
        assert.deepInclude(viewOf(limited), { code: "rate_limited", reason: "RateLimited", retryAfterMs: 60_000 })
        const inits = fake.calls("POST", "/v2/post/publish/video/init/").length
        assert.isTrue(
          (yield* Effect.flip(
            publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
          )).reason._tag === "RateLimited"
        )
        assert.strictEqual(fake.calls("POST", "/v2/post/publish/video/init/").length, inits)
      })
  )

  it.effect("a failed publish names its reason; an invalid token is unauthorized; a missing scope is revoked", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected()
      fake.state.failNext = "duration_check_failed"
      const failed = yield* Effect.flip(
        publishThrough(network, request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
      )
      assert.deepInclude(failed, { code: "upstream_rejected", retryable: false })
      assert.include(failed.message, "duration_check_failed")
      fake.script("POST", "/v2/post/publish/creator_info/query/", {
        status: 401,
        body: {
          data: {},
          error: {
            code: "scope_not_authorized",
            message: "The user did not authorize the scope required.",
            log_id: "y"
          }
        }
      })
      assert.deepInclude(
        viewOf(
          yield* Effect.flip(
            publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
          )
        ),
        { reason: "Revoked" }
      )
      fake.expireAccess("u-alice")
      assert.deepInclude(
        viewOf(
          yield* Effect.flip(
            publisher.publish(request(account, credentials, { media: [(yield* video(blobs, 2000)).media] }))
          )
        ),
        { code: "account_needs_reconnection", reason: "Unauthorized" }
      )
    })
  )
})
