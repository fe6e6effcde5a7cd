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
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.downloadPolls = 2
  const { network, blobs } = yield* tiktokOn(fake)
  const connection = yield* connect(fake, network)
  return {
    network,
    blobs,
    publisher: network.publisher,
    credentials: connection.credentials!,
    account: accountOf(connection)
  }
})

const draft = { tiktok: { draft: true } }
const paths = (since: number) =>
  fake.requests.slice(since).map((r) => `${r.method} ${r.path.replace(/\/upload\/.+$/, "/upload/:id")}`)

describe("TikTok drafts (Upload to inbox) against the fake TikTok", () => {
  it.effect(
    "connecting asks for video.upload; a draft: inbox init with source_info only, chunks, status until SEND_TO_USER_INBOX, published under its publish_id with no URL",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected
        const authorize = fake.calls("GET", "/v2/auth/authorize/").at(-1)!
        assert.include(String(authorize.query.scope).split(","), "video.upload")
        const size = MB5 + 4321
        const clip = yield* video(blobs, size)
        const req = request(account, credentials, {
          media: [clip.media],
          tiktokAiGenerated: true,
          options: { tiktok: { draft: true, privacyLevel: "PUBLIC_TO_EVERYONE" } }
        })
        const start = fake.requests.length
        const outcomes = yield* publishThrough(network, req, yield* publisher.prepare(req))
        // No creator info (a draft has no settings to fit), the init, the chunk, then status reads to the inbox.
        assert.deepStrictEqual(paths(start), [
          "POST /v2/post/publish/inbox/video/init/",
          "POST /v2/post/publish/status/fetch/",
          "PUT /upload/:id",
          "POST /v2/post/publish/status/fetch/",
          "POST /v2/post/publish/status/fetch/"
        ])
        assert.deepStrictEqual(fake.calls("POST", "/v2/post/publish/inbox/video/init/").at(-1)!.body, {
          source_info: { source: "FILE_UPLOAD", video_size: size, chunk_size: MB5, total_chunk_count: 1 }
        })
        const publishId = JSON.parse((outcomes[0] as { handle: string }).handle).publishId
        const made = fake.publishes.get(publishId)!
        assert.deepInclude(made, { inbox: true, status: "SEND_TO_USER_INBOX", sha256: clip.sha256, postId: null })
        assert.deepStrictEqual(publishedOf(outcomes.at(-1)!), { externalId: publishId, url: null })
        assert.lengthOf(fake.calls("POST", "/v2/post/publish/video/init/"), 0)
      })
  )

  it.effect("a lost answer mid-upload: recovery goes through the publish_id and the draft arrives once", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected
      const size = 2 * MB5 + 10
      const clip = yield* video(blobs, size)
      const req = request(account, credentials, { media: [clip.media], options: draft })
      const started = yield* publisher.publish(req, yield* publisher.prepare(req))
      if (started._tag !== "Processing") return assert.fail("expected Processing")
      fake.script("PUT", /^\/upload\//, { status: 206, dropAnswer: true })
      const lost = yield* publisher.publish(req, started.handle)
      assert.deepStrictEqual(lost, { _tag: "Processing", handle: started.handle, checkAfterMs: 30_000 })
      assert.deepStrictEqual(yield* publisher.recover!(req, started.handle), { _tag: "NotPublished" })
      const outcomes = yield* publishThrough(network, req, started.handle)
      const publishId = JSON.parse(started.handle).publishId
      assert.deepStrictEqual(publishedOf(outcomes.at(-1)!), { externalId: publishId, url: null })
      assert.strictEqual([...fake.publishes.values()].filter((p) => p.sha256 === clip.sha256).length, 1)
      assert.lengthOf(fake.calls("POST", "/v2/post/publish/inbox/video/init/"), 2)
    })
  )

  it.effect(
    "refused: photos as a draft (before TikTok is asked), and an account connected without video.upload (reconnect)",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected
        const photos = request(account, credentials, { media: [yield* photo(blobs)], options: draft })
        const start = fake.requests.length
        const refused = yield* Effect.flip(publisher.publish(photos, yield* publisher.prepare(photos)))
        assert.deepInclude(viewOf(refused), { code: "validation_failed" })
        assert.strictEqual(fake.requests.length, start)
        const narrowed = {
          ...credentials,
          accessToken: fake.narrowScope(credentials.accessToken, "user.info.basic,video.publish,video.list")
        }
        const req = request(account, narrowed, { media: [(yield* video(blobs, 3000)).media], options: draft })
        const denied = yield* Effect.flip(publisher.publish(req, yield* publisher.prepare(req)))
        assert.deepInclude(viewOf(denied), { code: "account_needs_reconnection" })
      })
  )
})
