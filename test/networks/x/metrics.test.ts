import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import { type FakeX, startFakeX } from "./fakeX.ts"
import { account, connect, publishedOf, request, setNow, T0, xOn } from "./support.ts"

let fake: FakeX
beforeAll(async () => void (fake = await startFakeX()))
afterAll(() => fake.close())

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + (day += 100) * 86_400_000)
  fake.state.readAccess = "basic"
  fake.state.limits = { tweets: 100, tweetsPerDay: 2400, other: 900, deletes: 50 }
  const { network } = yield* xOn(fake)
  const { credentials } = yield* connect(network)
  return { network, credentials: credentials! }
})

describe("X metrics against the fake X", () => {
  it.effect("one GET /2/tweets for many posts: public and non-public figures under X's names", () =>
    Effect.gen(function* () {
      const { network, credentials } = yield* connected
      const a = publishedOf(yield* network.publisher.publish(request(credentials, { content: "figures a" })))
      const b = publishedOf(yield* network.publisher.publish(request(credentials, { content: "figures b" })))
      fake.setFigures(a.externalId, {
        like_count: 7,
        impression_count: 120,
        url_link_clicks: 3,
        retweet_count: 2,
        quote_count: 1
      })
      const before = fake.calls("GET", "/2/tweets").length
      const now = T0 + day * 86_400_000
      const answer = yield* network.publisher.metrics!.read({
        account: account(),
        credentials,
        posts: [
          { externalId: a.externalId, publishedAt: now },
          { externalId: b.externalId, publishedAt: now },
          { externalId: "1999999999999999999", publishedAt: now }
        ]
      })
      assert.strictEqual(fake.calls("GET", "/2/tweets").length - before, 1)
      assert(answer._tag === "Read")
      const raw = answer.figures.get(a.externalId)!
      assert.strictEqual(raw.like_count, 7)
      assert.strictEqual(raw.url_link_clicks, 3)
      const common = normalise("x", raw)
      assert.strictEqual(common.views.value, 120)
      assert.strictEqual(common.reposts.value, 3)
      assert.strictEqual(common.clicks.value, 3)
      assert.isNull(common.watchTimeSeconds.value)
      assert.strictEqual(answer.figures.get(b.externalId)!.like_count, 0)
      // A post X no longer has (taken down) is simply absent.
      assert.isFalse(answer.figures.has("1999999999999999999"))
    })
  )

  it.effect("posts older than 30 days: public figures only, so X answers them instead of refusing the field", () =>
    Effect.gen(function* () {
      const { network, credentials } = yield* connected
      const a = publishedOf(yield* network.publisher.publish(request(credentials, { content: "old figures" })))
      fake.setFigures(a.externalId, { like_count: 4, url_link_clicks: 9 })
      yield* setNow(fake, T0 + (day + 40) * 86_400_000)
      // The 2-hour access token ended meanwhile: renewed as the refresh would.
      const renewed = yield* network.connector.refresh!(credentials)
      const answer = yield* network.publisher.metrics!.read({
        account: account(),
        credentials: renewed,
        posts: [{ externalId: a.externalId, publishedAt: T0 + day * 86_400_000 }]
      })
      const [call] = fake.calls("GET", "/2/tweets").slice(-1)
      assert.strictEqual(call.query["tweet.fields"], "public_metrics")
      assert(answer._tag === "Read")
      assert.strictEqual(answer.figures.get(a.externalId)!.like_count, 4)
      assert.isNull(normalise("x", answer.figures.get(a.externalId)!).clicks.value)
    })
  )

  it.effect("an app whose access level reads no posts: NotOffered with X's words, not an error", () =>
    Effect.gen(function* () {
      const { network, credentials } = yield* connected
      fake.state.readAccess = "free"
      const answer = yield* network.publisher.metrics!.read({
        account: account(),
        credentials,
        posts: [{ externalId: "1", publishedAt: T0 }]
      })
      assert(answer._tag === "NotOffered")
      assert.include(answer.reason, "access level")
    })
  )

  it.effect("a used-up 15-minute window: rate limited until X's reset, and no further call until then", () =>
    Effect.gen(function* () {
      const { network, credentials } = yield* connected
      fake.state.limits = { tweets: 100, tweetsPerDay: 2400, other: 1, deletes: 50 }
      const read = network.publisher.metrics!.read({
        account: account(),
        credentials,
        posts: [{ externalId: "1", publishedAt: T0 }]
      })
      yield* read
      const before = fake.calls("GET", "/2/tweets").length
      const first = yield* Effect.flip(read)
      assert.strictEqual(first.reason._tag, "RateLimited")
      const second = yield* Effect.flip(read)
      assert.strictEqual(second.reason._tag, "RateLimited")
      assert.strictEqual(fake.calls("GET", "/2/tweets").length - before, 1)
    })
  )
})
