import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  connect,
  type Files,
  instagramOn,
  processingOf,
  publishedOf,
  requestFor,
  setNow,
  startFiles,
  T0,
  upload,
  VERSION
} from "./support.ts"

let fake: FakeGraph
let files: Files
beforeAll(async () => {
  fake = await startFakeGraph()
  files = await startFiles(fake)
})
afterAll(async () => {
  await files.close()
  await fake.close()
})

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.containerPolls = 2
  fake.state.videoPolls = 3
  const network = instagramOn(fake, files)
  const [connection] = yield* connect(network)
  return { network, account: accountOf("instagram", connection!), credentials: connection!.credentials! }
})

const IG = "17841400000000099"
const story = { instagram: { story: true } }
const mediaCalls = (start: number) =>
  fake.requests.slice(start).filter((r) => r.method === "POST" && r.path === `/${VERSION}/${IG}/media`)

const untilPublished = (
  publisher: { readonly publish: (r: PublishRequest, h?: string) => Effect.Effect<PublishOutcome, any> },
  request: PublishRequest,
  handle: string
) =>
  Effect.gen(function* () {
    const waits: Array<number> = []
    let outcome = yield* publisher.publish(request, handle)
    while (outcome._tag === "Processing" && waits.length < 20) {
      waits.push(outcome.checkAfterMs)
      outcome = yield* publisher.publish(request, outcome.handle)
    }
    return { published: publishedOf(outcome), waits }
  })

describe("Instagram stories against the fake Graph API", () => {
  it.effect("an image story: one STORIES container with image_url and no caption, published once FINISHED", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const image = yield* upload(files.blobs, "image")
      const request = requestFor(account, credentials, {
        content: "Not shown on a story",
        media: [image],
        options: story
      })
      const start = fake.requests.length
      const { published, waits } = yield* untilPublished(
        network.publisher,
        request,
        yield* network.publisher.prepare(request)
      )
      // An image container: 2 polls (3 s, 6 s), then published on the next call.
      assert.deepStrictEqual(waits, [3000, 6000, 0])
      const creates = mediaCalls(start)
      assert.lengthOf(creates, 1)
      assert.strictEqual(creates[0]!.body.media_type, "STORIES")
      assert.match(String(creates[0]!.body.image_url), /\/files\/media\/med_meta\d+\/f\.jpg\?expires=/)
      assert.notProperty(creates[0]!.body, "caption")
      const made = fake.posts.find((p) => p.id === published.externalId)!
      assert.deepInclude(made, { kind: "story", mediaType: "STORIES", text: "" })
      assert.strictEqual(published.url, `https://www.instagram.com/stories/herald.solo/${made.id}/`)
      // A story is not a feed post: /media does not list it.
      assert.notInclude(
        fake.posts.filter((p) => p.kind === "media").map((p) => p.id),
        made.id
      )
    })
  )

  it.effect("a video story: video_url, polled at video pace until FINISHED; no cover is sent", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const video = yield* upload(files.blobs, "video", 30_000)
      const request = requestFor(account, credentials, {
        content: "",
        media: [video],
        cover: { offsetMs: 1000 },
        options: story
      })
      const start = fake.requests.length
      const { published, waits } = yield* untilPublished(
        network.publisher,
        request,
        yield* network.publisher.prepare(request)
      )
      assert.deepStrictEqual(waits, [10_000, 20_000, 40_000, 0])
      const [create] = mediaCalls(start)
      // Nothing beyond the story's own fields (the token's proof aside): no caption, no cover.
      assert.deepStrictEqual(
        Object.keys(create!.body)
          .filter((k) => k !== "appsecret_proof")
          .sort(),
        ["media_type", "video_url"]
      )
      assert.strictEqual(create!.body.media_type, "STORIES")
      assert.strictEqual(
        fake.fetches.find((f) => f.url === create!.body.video_url)?.status,
        200,
        "Meta fetched the video from Herald's signed link"
      )
      assert.strictEqual(fake.posts.find((p) => p.id === published.externalId)!.kind, "story")
    })
  )

  it.effect("a story of two uploads is refused before Instagram is asked; Meta refuses a caption on a story", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const two = [yield* upload(files.blobs, "image"), yield* upload(files.blobs, "image")]
      const request = requestFor(account, credentials, { content: "", media: two, options: story })
      const start = fake.requests.length
      const refused = yield* Effect.flip(network.publisher.publish(request, yield* network.publisher.prepare(request)))
      assert.deepInclude(refused, {
        code: "validation_failed",
        retryable: false,
        message: "An Instagram story is one image or one video, not a carousel."
      })
      assert.lengthOf(mediaCalls(start), 0)
      // The stand-in holds Meta's rule, so a caption Herald sent would be seen.
      const direct = yield* Effect.promise(() =>
        fetch(`${fake.origin}/${VERSION}/${IG}/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${credentials.accessToken}`, "content-type": "application/json" },
          body: JSON.stringify({ media_type: "STORIES", image_url: "https://example.com/a.jpg", caption: "no" })
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { message: string } } }))
      )
      assert.strictEqual(direct.status, 400)
      assert.match(direct.body.error.message, /caption is not supported for stories/)
    })
  )

  it.effect(
    "crash recovery: a story whose publish answer was lost is found among the account's stories, never published twice",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const request = requestFor(account, credentials, {
          content: "",
          media: [yield* upload(files.blobs, "image")],
          options: story
        })
        const first = processingOf(yield* network.publisher.publish(request, yield* network.publisher.prepare(request)))
        const polled = processingOf(yield* network.publisher.publish(request, first.handle))
        const ready = processingOf(yield* network.publisher.publish(request, polled.handle))
        assert.strictEqual(JSON.parse(ready.handle).stage, "ready")
        assert.deepStrictEqual(yield* network.publisher.recover!(request, ready.handle), { _tag: "NotPublished" })
        fake.script("POST", `/${VERSION}/${IG}/media_publish`, { status: 200, dropAnswer: true })
        assert.strictEqual((yield* Effect.exit(network.publisher.publish(request, ready.handle)))._tag, "Failure")
        const recovered = yield* network.publisher.recover!(request, ready.handle)
        const made = fake.posts.filter((p) => p.kind === "story" && p.container === JSON.parse(ready.handle).container)
        assert.lengthOf(made, 1)
        assert.deepStrictEqual(recovered, {
          _tag: "Published",
          published: { externalId: made[0]!.id, url: `https://www.instagram.com/stories/herald.solo/${made[0]!.id}/` }
        })
        assert.isTrue(fake.calls("GET", `/${VERSION}/${IG}/stories`).length > 0)
        // Publishing again from the same checkpoint reads the story back instead of making another.
        const again = yield* network.publisher.publish(
          request,
          JSON.stringify({ ...JSON.parse(ready.handle), stage: "container", createdAt: 0, children: [], polls: 0 })
        )
        assert.deepStrictEqual(publishedOf(again).externalId, made[0]!.id)
        assert.lengthOf(
          fake.posts.filter((p) => p.kind === "story" && p.container === JSON.parse(ready.handle).container),
          1
        )
      })
  )
})
