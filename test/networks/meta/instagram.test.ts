import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  callbackFor,
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
import { viewOf } from "../shared/reason.ts"
import sharp from "sharp"
import { readAll } from "../../../adapters/networks/shared/media.ts"
import * as Harness from "../shared/harness.ts"

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
/** The Instagram Login account connected on a fresh Instagram network, a day after the last test's. */
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.containerPolls = 2
  fake.state.videoPolls = 3
  const network = instagramOn(fake, files)
  const [connection] = yield* connect(network)
  return { network, account: accountOf("instagram", connection!), credentials: connection!.credentials! }
})

const IG = "17841400000000099"
const since = () => fake.requests.length
const callsFrom = (start: number) =>
  fake.requests.slice(start).map((r) => `${r.method} ${r.path.replace(/\/\d{12,}$/, "/:id")}`)

/** Publishes step by step, as the pipeline does (each Processing handle is the next call's), and says how many steps it took. */
const untilPublished = (
  publisher: { readonly publish: (r: PublishRequest, h?: string) => Effect.Effect<PublishOutcome, any> },
  request: PublishRequest,
  handle: string,
  max = 20
) =>
  Effect.gen(function* () {
    const waits: Array<number> = []
    let outcome = yield* publisher.publish(request, handle)
    while (outcome._tag === "Processing" && waits.length < max) {
      waits.push(outcome.checkAfterMs)
      outcome = yield* publisher.publish(request, outcome.handle)
    }
    return { published: publishedOf(outcome), waits }
  })

describe("Instagram connector against the fake Graph API", () => {
  it.effect(
    "Instagram Login: the code (Meta appends #_) for a 1-hour token, exchanged at once for a 60-day one; renewed with itself after a day",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const network = instagramOn(fake, files)
        const begun = yield* network.connector.begin({
          state: "st-1",
          callbackUrl: callbackFor("instagram"),
          formUrl: ""
        })
        const url = new URL(begun.url)
        assert.strictEqual(`${url.origin}${url.pathname}`, `${fake.origin}/oauth/authorize`)
        assert.strictEqual(
          url.searchParams.get("scope"),
          "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_insights"
        )
        const start = since()
        const [connection] = yield* connect(network)
        assert.deepStrictEqual(callsFrom(start).slice(1), [
          "POST /oauth/access_token",
          "GET /access_token",
          `GET /${VERSION}/me`
        ])
        assert.deepInclude(fake.requests[start + 2]!.query, {
          grant_type: "ig_exchange_token",
          client_secret: fake.apps.instagram.clientSecret
        })
        assert.deepStrictEqual(connection!.profile, {
          externalId: IG,
          name: "Herald Solo",
          username: "herald.solo",
          avatarUrl: `https://scontent.example/${IG}.jpg`
        })
        const credentials = connection!.credentials!
        // 60 days from Meta, renewed a week before they end.
        assert.strictEqual(credentials.expiresAt, T0 + (60 - 7) * 86_400_000)
        assert.strictEqual(credentials.refreshToken, credentials.accessToken)
        assert.deepStrictEqual(credentials.extra, { login: "instagram" })
        assert.strictEqual(fake.tokenInfo(credentials.accessToken)!.kind, "ig-user")
        yield* setNow(fake, T0 + 53 * 86_400_000)
        const renewed = yield* network.connector.refresh!(credentials)
        assert.notStrictEqual(renewed.accessToken, credentials.accessToken)
        assert.strictEqual(renewed.expiresAt, T0 + 53 * 86_400_000 + 53 * 86_400_000)
        assert.deepInclude(fake.calls("GET", "/refresh_access_token").at(-1)!.query, {
          grant_type: "ig_refresh_token",
          access_token: credentials.accessToken
        })
        fake.revoke(fake.tokenInfo(renewed.accessToken)!.subject)
        const refused = yield* Effect.flip(network.connector.refresh!(renewed))
        assert.strictEqual(refused._tag, "GrantRevoked")
      })
  )

  it.effect(
    "with Facebook Login only: the Instagram accounts linked to the person's Pages, each with its Page's token",
    () =>
      Effect.gen(function* () {
        const network = instagramOn(fake, files, { instagram: false, facebook: true })
        const begun = yield* network.connector.begin({
          state: "st-2",
          callbackUrl: callbackFor("instagram"),
          formUrl: ""
        })
        assert.isTrue(begun.url.startsWith(`${fake.origin}/${VERSION}/dialog/oauth?`))
        const connections = yield* connect(network)
        assert.deepStrictEqual(
          connections.map((c) => c.profile.username),
          ["herald.bakery"]
        )
        assert.deepStrictEqual(fake.tokenInfo(connections[0]!.credentials!.accessToken), {
          kind: "page",
          subject: "101000000000001",
          expiresAt: null
        })
      })
  )
})

describe("Instagram publisher against the fake Graph API", () => {
  it.effect(
    "a carousel: items made from signed URLs, polled until FINISHED, then the carousel, polled, then published; never published before",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const media = [
          yield* upload(files.blobs, "image"),
          yield* upload(files.blobs, "video", 40_000),
          yield* upload(files.blobs, "image")
        ]
        const request = requestFor(account, credentials, { content: "Three from the bakery #bread", media })
        const start = since()
        const { published, waits } = yield* untilPublished(
          network.publisher,
          request,
          yield* network.publisher.prepare!(request)
        )
        // Items: a video among them takes 3 polls (10 s, 20 s, 40 s); then the carousel takes 2 (10 s, 20 s); FINISHED, it is published on the next call.
        assert.deepStrictEqual(waits, [10_000, 20_000, 40_000, 10_000, 20_000, 0])
        const calls = callsFrom(start)
        const publishAt = calls.indexOf(`POST /${VERSION}/${IG}/media_publish`)
        assert.deepStrictEqual(calls.slice(0, 3), [
          `POST /${VERSION}/${IG}/media`,
          `POST /${VERSION}/${IG}/media`,
          `POST /${VERSION}/${IG}/media`
        ])
        const creates = fake.requests.slice(start).filter((r) => r.method === "POST" && r.path.endsWith("/media"))
        assert.deepStrictEqual(
          creates.slice(0, 3).map((r) => [r.body.media_type ?? "IMAGE", r.body.is_carousel_item]),
          [
            ["IMAGE", "true"],
            ["VIDEO", "true"],
            ["IMAGE", "true"]
          ]
        )
        const carousel = creates[3]!
        assert.deepInclude(carousel.body, { media_type: "CAROUSEL", caption: "Three from the bakery #bread" })
        const childIds = String(carousel.body.children).split(",")
        assert.lengthOf(childIds, 3)
        // Every container was FINISHED when used: the carousel after its items, the publish after the carousel.
        const publishCall = fake.requests[start + publishAt]!
        assert.strictEqual(
          publishCall.body.creation_id,
          fake.posts.find((p) => p.id === published.externalId)!.container
        )
        assert.strictEqual(fake.containers.get(String(publishCall.body.creation_id))!.status, "PUBLISHED")
        assert.strictEqual(calls.filter((c) => c.endsWith("/media_publish")).length, 1)
        assert.match(published.url ?? "", /^https:\/\/www\.instagram\.com\/p\//)
        for (const r of creates.slice(0, 3))
          assert.strictEqual(fake.fetches.find((f) => f.url === (r.body.image_url ?? r.body.video_url))!.status, 200)
      })
  )

  it.effect("a reel with a cover image, and one with a frame offset; share_to_feed", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const video = yield* upload(files.blobs, "video", 30_000)
      const cover = yield* upload(files.blobs, "image")
      const withCover = requestFor(account, credentials, {
        content: "Reel time",
        media: [video],
        cover: { mediaId: cover.id },
        coverMedia: cover
      })
      yield* untilPublished(network.publisher, withCover, yield* network.publisher.prepare!(withCover))
      const reel = fake.calls("POST", `/${VERSION}/${IG}/media`).at(-1)!
      assert.deepInclude(reel.body, { media_type: "REELS", caption: "Reel time", share_to_feed: "true" })
      assert.match(String(reel.body.cover_url), /\/files\/media\/med_meta\d+\/f\.jpg\?expires=/)
      const atFrame = requestFor(account, credentials, {
        content: "Reel at 1.5 s",
        media: [video],
        cover: { offsetMs: 1500 }
      })
      yield* untilPublished(network.publisher, atFrame, yield* network.publisher.prepare!(atFrame))
      assert.deepInclude(fake.calls("POST", `/${VERSION}/${IG}/media`).at(-1)!.body, {
        media_type: "REELS",
        thumb_offset: "1500"
      })
    })
  )

  it.effect("a container that fails processing fails the post with Meta's words; one that expires is made again", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const image = yield* upload(files.blobs, "image")
      fake.state.failNextContainer = "Error: The aspect ratio is not supported."
      const request = requestFor(account, credentials, { content: "Bad ratio", media: [image] })
      const first = processingOf(yield* network.publisher.publish(request, yield* network.publisher.prepare!(request)))
      const failed = yield* Effect.flip(network.publisher.publish(request, first.handle))
      assert.deepInclude(failed, {
        code: "upstream_rejected",
        retryable: false,
        message: "Instagram could not process the media: Error: The aspect ratio is not supported."
      })
      fake.state.expireNextContainer = true
      const again = requestFor(account, credentials, { content: "Left too long", media: [image] })
      const made = processingOf(yield* network.publisher.publish(again, yield* network.publisher.prepare!(again)))
      const expired = JSON.parse(made.handle).container
      const remade = processingOf(yield* network.publisher.publish(again, made.handle))
      assert.notStrictEqual(JSON.parse(remade.handle).container, expired)
      assert.strictEqual(fake.containers.get(expired)!.status, "EXPIRED")
      const { published } = yield* untilPublished(network.publisher, again, remade.handle)
      assert.strictEqual(
        fake.posts.find((p) => p.id === published.externalId)!.container,
        JSON.parse(remade.handle).container
      )
    })
  )

  it.effect(
    "a publish whose answer was lost: the container says PUBLISHED and the post is found, never published twice",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const request = requestFor(account, credentials, {
          content: "Lost answer",
          media: [yield* upload(files.blobs, "image")]
        })
        const first = processingOf(
          yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
        )
        const polled = processingOf(yield* network.publisher.publish(request, first.handle))
        // Still processing: not live, and Meta is not even asked.
        const before = since()
        assert.deepStrictEqual(yield* network.publisher.recover!(request, polled.handle), { _tag: "NotPublished" })
        assert.strictEqual(since(), before)
        const second = processingOf(yield* network.publisher.publish(request, polled.handle))
        assert.deepStrictEqual(
          { stage: JSON.parse(second.handle).stage, wait: second.checkAfterMs },
          { stage: "ready", wait: 0 }
        )
        assert.deepStrictEqual(yield* network.publisher.recover!(request, second.handle), { _tag: "NotPublished" })
        fake.script("POST", `/${VERSION}/${IG}/media_publish`, { status: 200, dropAnswer: true })
        const exit = yield* Effect.exit(network.publisher.publish(request, second.handle))
        assert.strictEqual(exit._tag, "Failure")
        const recovered = yield* network.publisher.recover!(request, second.handle)
        const made = fake.posts.filter((p) => p.text === "Lost answer")
        assert.lengthOf(made, 1)
        assert.deepStrictEqual(recovered, {
          _tag: "Published",
          published: { externalId: made[0]!.id, url: `https://www.instagram.com/p/${made[0]!.id.slice(-11)}/` }
        })
        assert.lengthOf(
          fake
            .calls("POST", `/${VERSION}/${IG}/media_publish`)
            .filter((r) => r.body.creation_id === JSON.parse(second.handle).container),
          1
        )
      })
  )

  it.effect(
    "the 24-hour cap: the quota is read from content_publishing_limit; a capped publish keeps its container and waits an hour",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        fake.state.instagramDailyCap = 1
        const image = yield* upload(files.blobs, "image")
        assert.deepStrictEqual(yield* network.publisher.quota(account, credentials), {
          used: 0,
          limit: 1,
          windowSeconds: 86_400
        })
        const one = requestFor(account, credentials, { content: "First of the day", media: [image] })
        yield* untilPublished(network.publisher, one, yield* network.publisher.prepare!(one))
        assert.deepStrictEqual(yield* network.publisher.quota(account, credentials), {
          used: 1,
          limit: 1,
          windowSeconds: 86_400
        })
        const two = requestFor(account, credentials, { content: "Second of the day", media: [image] })
        const first = processingOf(yield* network.publisher.publish(two, yield* network.publisher.prepare!(two)))
        const polled = processingOf(yield* network.publisher.publish(two, first.handle))
        const ready = processingOf(yield* network.publisher.publish(two, polled.handle))
        const capped = processingOf(yield* network.publisher.publish(two, ready.handle))
        assert.deepStrictEqual(
          { wait: capped.checkAfterMs, container: JSON.parse(capped.handle).container },
          { wait: 3_600_000, container: JSON.parse(ready.handle).container }
        )
        fake.state.instagramDailyCap = 50
        yield* setNow(fake, fake.state.clock! + 3_600_000)
        const { published } = yield* untilPublished(network.publisher, two, capped.handle)
        assert.strictEqual(
          fake.posts.find((p) => p.id === published.externalId)!.container,
          JSON.parse(ready.handle).container
        )
      })
  )

  it.effect(
    "a first comment is a comment on the media; one whose answer was lost is found among the media's comments",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const post = requestFor(account, credentials, {
          content: "Comment below",
          media: [yield* upload(files.blobs, "image")]
        })
        const { published } = yield* untilPublished(network.publisher, post, yield* network.publisher.prepare!(post))
        const comment = requestFor(account, credentials, {
          content: "Recipe in bio",
          replyTo: { rootId: published.externalId, parentId: published.externalId }
        })
        const handle = yield* network.publisher.prepare!(comment)
        fake.script("POST", `/${VERSION}/${published.externalId}/comments`, { status: 200, dropAnswer: true })
        assert.strictEqual((yield* Effect.exit(network.publisher.publish(comment, handle)))._tag, "Failure")
        const recovered = yield* network.publisher.recover!(comment, handle)
        const made = fake.posts.filter((p) => p.kind === "comment" && p.replyTo === published.externalId)
        assert.deepStrictEqual(recovered, { _tag: "Published", published: { externalId: made[0]!.id, url: null } })
        assert.lengthOf(made, 1)
      })
  )

  it.effect(
    "a PNG (Instagram takes JPEG only) goes as a converted JPEG copy that Meta fetches, and the post is published",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const png = yield* Effect.promise(() =>
          sharp({ create: { width: 1080, height: 1350, channels: 4, background: "#3a6" } })
            .png()
            .toBuffer()
        )
        const { media } = yield* Harness.upload(files.blobs, {
          type: "image",
          mimeType: "image/png",
          bytes: new Uint8Array(png),
          fields: (n) => ({ id: `med_png${n}`, blobKey: `media/med_png${n}/f.png`, width: 1080, height: 1350 })
        })
        const request = requestFor(account, credentials, { content: "A PNG", media: [media] })
        const { published } = yield* untilPublished(
          network.publisher,
          request,
          yield* network.publisher.prepare!(request)
        )
        assert.isTrue(fake.posts.some((p) => p.id === published.externalId))
        const container = fake.calls("POST", /\/media$/).at(-1)!
        const fetched = fake.fetches.find((f) => f.url === container.body.image_url)!
        assert.strictEqual(fetched.type, "image/jpeg")
        assert.isAbove(fetched.bytes, 0)
        const copy = yield* readAll(files.blobs, `${media.blobKey}.converted.jpg`)
        assert.strictEqual((yield* Effect.promise(() => sharp(copy).metadata())).format, "jpeg")
      })
  )

  it.effect("an account connected through Facebook publishes on graph.facebook.com's paths with its Page token", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + ++day * 86_400_000)
      const network = instagramOn(fake, files, { instagram: false, facebook: true })
      const [connection] = yield* connect(network)
      const account = accountOf("instagram", connection!)
      const request = requestFor(account, connection!.credentials!, {
        content: "Via the Page",
        media: [yield* upload(files.blobs, "image")]
      })
      const { published } = yield* untilPublished(
        network.publisher,
        request,
        yield* network.publisher.prepare!(request)
      )
      const publish = fake.calls("POST", `/${VERSION}/17841400000000001/media_publish`).at(-1)!
      assert.strictEqual(publish.headers.authorization, `Bearer ${connection!.credentials!.accessToken}`)
      assert.strictEqual(fake.posts.find((p) => p.id === published.externalId)!.owner, "17841400000000001")
    })
  )

  it.effect("a token revoked on Meta's side (190) is revoked, at any step", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const request = requestFor(account, credentials, {
        content: "Revoked",
        media: [yield* upload(files.blobs, "image")]
      })
      const first = processingOf(yield* network.publisher.publish(request, yield* network.publisher.prepare!(request)))
      fake.revoke(fake.tokenInfo(credentials.accessToken)!.subject)
      const error = yield* Effect.flip(network.publisher.publish(request, first.handle))
      assert.deepInclude(viewOf(error), { code: "account_needs_reconnection", reason: "Revoked" })
    })
  )
})
