import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"
import { accountOf, connect, pinterestOn, publishedOf, publishThrough, request, setNow, T0, upload } from "./support.ts"
import { outcomeUnknown, viewOf } from "../shared/reason.ts"

let fake: FakePinterest
beforeAll(async () => void (fake = await startFakePinterest()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "p-alice") =>
  Effect.gen(function* () {
    yield* setNow(fake, T0 + ++day * 86_400_000)
    fake.state.boardPageSize = 25
    const { network, blobs } = yield* pinterestOn(fake)
    const connection = yield* connect(fake, network, as)
    return {
      network,
      blobs,
      publisher: network.publisher,
      credentials: connection.credentials!,
      account: accountOf(connection)
    }
  })

describe("Pinterest publisher against the fake Pinterest", () => {
  it.effect("an image pin to the chosen board, with title, link and the text as description", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      const image = yield* upload(blobs, "image", "image/jpeg", 40_000)
      const req = request(account, credentials, {
        media: [image.media],
        options: { pinterest: { boardId: "549755885176", title: "Lemon tart", link: "https://alices.kitchen/tart" } }
      })
      const { externalId, url } = publishedOf(yield* publisher.publish(req, yield* publisher.prepare!(req)))
      assert.strictEqual(url, `https://www.pinterest.com/pin/${externalId}/`)
      const sent = fake.calls("POST", "/v5/pins").at(-1)!.body as any
      assert.deepInclude(sent, {
        board_id: "549755885176",
        title: "Lemon tart",
        description: "Lemon tart, step by step",
        link: "https://alices.kitchen/tart"
      })
      assert.deepInclude(sent.media_source, { source_type: "image_base64", content_type: "image/jpeg" })
      assert.deepStrictEqual(fake.pins.at(-1)!.media, [{ type: "image/jpeg", sha256: image.sha256 }])
    })
  )

  it.effect("without a board: the account's first board (its boards read, every page of them)", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      fake.state.boardPageSize = 2
      const boards = yield* publisher.boards!(account, credentials)
      assert.deepStrictEqual(
        boards.map((b) => b.name),
        ["Recipes", "Kitchen ideas", "Drafts"]
      )
      assert.deepStrictEqual(boards[0], {
        id: "549755885175",
        name: "Recipes",
        description: "Things to cook",
        privacy: "PUBLIC"
      })
      assert.deepStrictEqual(
        fake
          .calls("GET", "/v5/boards")
          .slice(-2)
          .map((r) => r.query.bookmark ?? null),
        [null, "2"]
      )
      publishedOf(
        yield* publisher.publish(
          request(account, credentials, { media: [(yield* upload(blobs, "image", "image/png", 900)).media] })
        )
      )
      assert.strictEqual(fake.pins.at(-1)!.boardId, "549755885175")
    })
  )

  it.effect("a carousel of three images, in the post's order", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      const images = [
        yield* upload(blobs, "image", "image/jpeg", 1000),
        yield* upload(blobs, "image", "image/png", 2000),
        yield* upload(blobs, "image", "image/jpeg", 3000)
      ]
      publishedOf(
        yield* publisher.publish(
          request(account, credentials, {
            media: images.map((i) => i.media),
            options: { pinterest: { boardId: "549755885175" } }
          })
        )
      )
      const sent = (fake.calls("POST", "/v5/pins").at(-1)!.body as any).media_source
      assert.strictEqual(sent.source_type, "multiple_image_base64")
      assert.deepStrictEqual(
        sent.items.map((i: any) => i.content_type),
        ["image/jpeg", "image/png", "image/jpeg"]
      )
      assert.deepStrictEqual(
        fake.pins.at(-1)!.media.map((m) => m.sha256),
        images.map((i) => i.sha256)
      )
    })
  )

  it.effect(
    "a video with a cover image: registered, uploaded with every upload parameter, processing polled as Processing outcomes, then pinned",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, account, blobs } = yield* connected()
        const clip = yield* upload(blobs, "video", "video/mp4", 300_000)
        const cover = yield* upload(blobs, "image", "image/jpeg", 5000)
        const req = request(account, credentials, {
          media: [clip.media],
          cover: { mediaId: cover.media.id },
          coverMedia: cover.media,
          options: { pinterest: { boardId: "549755885175" } }
        })
        const start = fake.requests.length
        const handle = yield* publisher.prepare!(req)
        const outcomes = yield* publishThrough(network, req, handle)
        assert.deepStrictEqual(
          outcomes.map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [5000, 10_000, 0, "Published"]
        )
        assert.deepStrictEqual(
          fake.requests.slice(start).map((r) => `${r.method} ${r.path.replace(/\/v5\/media\/\d+$/, "/v5/media/:id")}`),
          ["POST /v5/media", "POST /s3-upload", "GET /v5/media/:id", "GET /v5/media/:id", "POST /v5/pins"]
        )
        const uploadForm = fake.calls("POST", "/s3-upload").at(-1)!.body as any
        assert.deepInclude(uploadForm, { "x-amz-algorithm": "AWS4-HMAC-SHA256" })
        assert.deepStrictEqual(uploadForm.file, { bytes: 300_000, type: "video/mp4" })
        const pin = fake.pins.at(-1)!
        assert.deepStrictEqual(pin.media, [{ type: "video", sha256: clip.sha256 }])
        assert.strictEqual(pin.cover, `image:${cover.sha256}`)
        // A frame offset instead of an image.
        publishedOf((yield* publishThrough(network, { ...req, cover: { offsetMs: 2500 }, coverMedia: null })).at(-1)!)
        assert.strictEqual(fake.pins.at(-1)!.cover, "frame:2500")
      })
  )

  it.effect(
    "a lost answer: the pin is found on its board among pins made since the attempt began, not made again",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        const req = request(account, credentials, {
          content: "Lost pin",
          media: [(yield* upload(blobs, "image", "image/jpeg", 700)).media],
          options: { pinterest: { title: "Lost", link: "https://alices.kitchen/lost" } }
        })
        const handle = yield* publisher.prepare!(req)
        fake.script("POST", "/v5/pins", { status: 201, dropAnswer: true })
        const lost = yield* Effect.exit(publisher.publish(req, handle))
        assert.isTrue(outcomeUnknown(lost))
        const creates = fake.calls("POST", "/v5/pins").length
        assert.deepStrictEqual(yield* publisher.recover!(req, handle), {
          _tag: "Published",
          published: { externalId: fake.pins.at(-1)!.id, url: `https://www.pinterest.com/pin/${fake.pins.at(-1)!.id}/` }
        })
        assert.strictEqual(fake.calls("POST", "/v5/pins").length, creates)
        assert.deepStrictEqual(yield* publisher.recover!({ ...req, content: "Another text" }, handle), {
          _tag: "NotPublished"
        })
      })
  )

  it.effect(
    "Pinterest's refusals: an unknown board with its words; a 429 waits for Retry-After without calling; 401 is unauthorized; an account without boards is told so",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        const image = (yield* upload(blobs, "image", "image/jpeg", 500)).media
        const unknown = yield* Effect.flip(
          publisher.publish(
            request(account, credentials, { media: [image], options: { pinterest: { boardId: "111" } } })
          )
        )
        assert.deepInclude(unknown, { code: "upstream_rejected", message: "Board not found. (code 1)" })
        fake.script("POST", "/v5/pins", {
          status: 429,
          body: { code: 8, message: "Rate limit exceeded." },
          headers: { "retry-after": "42" }
        })
        const limited = yield* Effect.flip(
          publisher.publish(
            request(account, credentials, { media: [image], options: { pinterest: { boardId: "549755885175" } } })
          )
        )
        assert.deepInclude(viewOf(limited), { code: "rate_limited", reason: "RateLimited", retryAfterMs: 42_000 })
        const pins = fake.calls("POST", "/v5/pins").length
        assert.isTrue(
          (yield* Effect.flip(
            publisher.publish(
              request(account, credentials, { media: [image], options: { pinterest: { boardId: "549755885175" } } })
            )
          )).reason._tag === "RateLimited"
        )
        assert.strictEqual(fake.calls("POST", "/v5/pins").length, pins)
        const empty = yield* connected("p-empty")
        const theirs = (yield* upload(empty.blobs, "image", "image/jpeg", 500)).media
        const none = yield* Effect.flip(
          empty.publisher.publish(request(empty.account, empty.credentials, { media: [theirs] }))
        )
        assert.include(none.message, "has no board")
        fake.expireAccess("p-empty")
        const expired = yield* Effect.flip(
          empty.publisher.publish(
            request(empty.account, empty.credentials, { media: [theirs], options: { pinterest: { boardId: "1" } } })
          )
        )
        assert.deepInclude(viewOf(expired), { reason: "Unauthorized" }, expired.message)
      })
  )
})
