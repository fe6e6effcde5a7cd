import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  callbackFor,
  connect,
  type Files,
  processingOf,
  publishedOf,
  requestFor,
  setNow,
  startFiles,
  T0,
  threadsOn,
  upload
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

const TH = "7000000000000001"
let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.containerPolls = 2
  fake.state.videoPolls = 3
  const network = threadsOn(fake, files)
  const [connection] = yield* connect(network)
  return { network, account: accountOf("threads", connection!), credentials: connection!.credentials! }
})
const since = () => fake.requests.length

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

describe("Threads connector against the fake Threads API", () => {
  it.effect(
    "the code for a 1-hour token, exchanged at once (th_exchange_token) for 60 days; renewed with th_refresh_token; a refused renewal is GrantRevoked",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const network = threadsOn(fake, files)
        const begun = yield* network.connector.begin({
          state: "st-1",
          callbackUrl: callbackFor("threads"),
          formUrl: ""
        })
        assert.deepInclude(Object.fromEntries(new URL(begun.url).searchParams), {
          client_id: fake.apps.threads.clientId,
          scope:
            "threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights",
          response_type: "code"
        })
        const start = since()
        const [connection] = yield* connect(network)
        assert.deepStrictEqual(
          fake.requests.slice(start + 1).map((r) => `${r.method} ${r.path}`),
          ["POST /oauth/access_token", "GET /access_token", "GET /v1.0/me"]
        )
        assert.deepInclude(fake.requests[start + 2]!.query, {
          grant_type: "th_exchange_token",
          client_secret: fake.apps.threads.clientSecret
        })
        assert.deepStrictEqual(connection!.profile, {
          externalId: TH,
          name: "Herald on Threads",
          username: "herald.threads",
          avatarUrl: `https://scontent.example/${TH}.jpg`
        })
        const credentials = connection!.credentials!
        assert.strictEqual(credentials.expiresAt, T0 + 53 * 86_400_000)
        // Meta renews a token only once it is a day old.
        const young = yield* Effect.flip(network.connector.refresh!(credentials))
        assert.strictEqual(young._tag, "GrantRevoked")
        yield* setNow(fake, T0 + 2 * 86_400_000)
        const renewed = yield* network.connector.refresh!(credentials)
        assert.deepInclude(fake.calls("GET", "/refresh_access_token").at(-1)!.query, {
          grant_type: "th_refresh_token",
          access_token: credentials.accessToken
        })
        assert.strictEqual(fake.tokenInfo(renewed.accessToken)!.kind, "threads-user")
      })
  )
})

describe("Threads publisher against the fake Threads API", () => {
  it.effect(
    "a thread: the post, then each reply a container with reply_to_id its parent, each published only once FINISHED",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const start = since()
        const root = requestFor(account, credentials, { content: "A thread 🧵 about bread" })
        const first = yield* untilPublished(network.publisher, root, yield* network.publisher.prepare!(root))
        assert.deepStrictEqual(first.waits, [3_000, 6_000, 0])
        const reply = requestFor(account, credentials, {
          content: "Second: the dough",
          replyTo: { rootId: first.published.externalId, parentId: first.published.externalId }
        })
        const second = yield* untilPublished(network.publisher, reply, yield* network.publisher.prepare!(reply))
        const last = requestFor(account, credentials, {
          content: "Third: the oven",
          replyTo: { rootId: first.published.externalId, parentId: second.published.externalId }
        })
        const third = yield* untilPublished(network.publisher, last, yield* network.publisher.prepare!(last))
        const creates = fake.requests
          .slice(start)
          .filter((r) => r.method === "POST" && r.path === `/v1.0/${TH}/threads`)
          .map((r) => r.body)
        assert.deepStrictEqual(
          creates.map((b) => [b.media_type, b.text, b.reply_to_id]),
          [
            ["TEXT", "A thread 🧵 about bread", undefined],
            ["TEXT", "Second: the dough", first.published.externalId],
            ["TEXT", "Third: the oven", second.published.externalId]
          ]
        )
        assert.deepStrictEqual(
          [second, third].map((s) => fake.posts.find((p) => p.id === s.published.externalId)!.replyTo),
          [first.published.externalId, second.published.externalId]
        )
        assert.match(first.published.url ?? "", /^https:\/\/www\.threads\.net\/@herald\.threads\/post\//)
        // Status polls (GET) come between each create and its publish.
        const sequence = fake.requests
          .slice(start)
          .map((r) => (r.method === "POST" ? r.path.split("/").at(-1) : "poll"))
        assert.deepStrictEqual(sequence.slice(0, 5), ["threads", "poll", "poll", "threads_publish", "poll"])
      })
  )

  it.effect("a carousel of 3 (images and a video) and a poll on a text post", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const media = [
        yield* upload(files.blobs, "image"),
        yield* upload(files.blobs, "video", 20_000),
        yield* upload(files.blobs, "image")
      ]
      const carousel = requestFor(account, credentials, { content: "Three frames", media })
      const start = since()
      const { published } = yield* untilPublished(
        network.publisher,
        carousel,
        yield* network.publisher.prepare!(carousel)
      )
      const creates = fake.requests
        .slice(start)
        .filter((r) => r.method === "POST" && r.path === `/v1.0/${TH}/threads`)
        .map((r) => r.body)
      assert.deepStrictEqual(
        creates.map((b) => [b.media_type, b.is_carousel_item]),
        [
          ["IMAGE", "true"],
          ["VIDEO", "true"],
          ["IMAGE", "true"],
          ["CAROUSEL", undefined]
        ]
      )
      assert.deepInclude(creates[3], { text: "Three frames" })
      assert.strictEqual(fake.posts.find((p) => p.id === published.externalId)!.children.length, 3)
      const poll = requestFor(account, credentials, {
        content: "Rye or wheat?",
        poll: { options: ["Rye", "Wheat", "Both"], durationMinutes: 1440 }
      })
      yield* untilPublished(network.publisher, poll, yield* network.publisher.prepare!(poll))
      assert.deepStrictEqual(
        JSON.parse(String(fake.calls("POST", `/v1.0/${TH}/threads`).at(-1)!.body.poll_attachment)),
        { option_a: "Rye", option_b: "Wheat", option_c: "Both" }
      )
    })
  )

  it.effect("a video that Meta cannot download fails with its error message; the 24-hour caps are read", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.state.failNextContainer = "FAILED_DOWNLOADING_VIDEO"
      const request = requestFor(account, credentials, {
        content: "Broken clip",
        media: [yield* upload(files.blobs, "video")]
      })
      const first = processingOf(yield* network.publisher.publish(request, yield* network.publisher.prepare!(request)))
      assert.strictEqual(first.checkAfterMs, 10_000)
      const failed = yield* Effect.flip(network.publisher.publish(request, first.handle))
      assert.deepInclude(failed, {
        code: "upstream_rejected",
        message: "Threads could not process the media: FAILED_DOWNLOADING_VIDEO"
      })
      const quota = yield* network.publisher.quota(account, credentials)
      assert.deepStrictEqual(quota.posts.limit, 250)
      assert.deepStrictEqual(quota.replies.limit, 1000)
      assert.strictEqual(quota.windowSeconds, 86_400)
    })
  )

  it.effect("a reply whose publish answer was lost is found among the account's replies", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const root = requestFor(account, credentials, { content: "Root for a lost reply" })
      const { published } = yield* untilPublished(network.publisher, root, yield* network.publisher.prepare!(root))
      const reply = requestFor(account, credentials, {
        content: "A reply that got lost",
        replyTo: { rootId: published.externalId, parentId: published.externalId }
      })
      const one = processingOf(yield* network.publisher.publish(reply, yield* network.publisher.prepare!(reply)))
      const polled = processingOf(yield* network.publisher.publish(reply, one.handle))
      const two = processingOf(yield* network.publisher.publish(reply, polled.handle))
      fake.script("POST", `/v1.0/${TH}/threads_publish`, { status: 200, dropAnswer: true })
      assert.strictEqual((yield* Effect.exit(network.publisher.publish(reply, two.handle)))._tag, "Failure")
      const recovered = yield* network.publisher.recover!(reply, two.handle)
      const made = fake.posts.filter((p) => p.text === "A reply that got lost")
      assert.lengthOf(made, 1)
      assert.deepInclude(recovered, { _tag: "Published" })
      assert.strictEqual(recovered._tag === "Published" && recovered.published.externalId, made[0]!.id)
      assert.include(fake.calls("GET", `/v1.0/${TH}/replies`).at(-1)!.query.fields, "text")
    })
  )
})
