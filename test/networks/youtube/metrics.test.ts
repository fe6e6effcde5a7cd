import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"
import { accountOf, connect, setNow, T0, youTubeOn } from "./support.ts"

let fake: FakeYouTube
beforeAll(async () => void (fake = await startFakeYouTube()))
afterAll(() => fake.close())

let day = 0
const connected = (dailyUnits = 10_000) =>
  Effect.gen(function* () {
    yield* setNow(fake, T0 + ++day * 86_400_000)
    fake.state.readScopeMissing = false
    fake.state.quotaExceeded = false
    const { network } = yield* youTubeOn(fake, { dailyUnits })
    const connection = yield* connect(fake, network)
    return { network, account: accountOf(connection), credentials: connection.credentials! }
  })

const posts = (...ids: ReadonlyArray<string>) => ids.map((externalId) => ({ externalId, publishedAt: T0 }))

describe("YouTube metrics against the fake YouTube", () => {
  it.effect("videos.list?part=statistics for up to 50 ids in one call; counts (strings) as numbers", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected()
      fake.setStatistics("vidA", { viewCount: 1234, likeCount: 56, commentCount: 7 })
      fake.setStatistics("vidB", {})
      const before = fake.calls("GET", "/youtube/v3/videos").length
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: posts("vidA", "vidB", "gone")
      })
      const calls = fake.calls("GET", "/youtube/v3/videos").slice(before)
      assert.strictEqual(calls.length, 1)
      assert.strictEqual(calls[0].query.id, "vidA,vidB,gone")
      assert(answer._tag === "Read")
      const common = normalise("youtube", answer.figures.get("vidA")!)
      assert.strictEqual(common.views.value, 1234)
      assert.strictEqual(common.likes.value, 56)
      assert.strictEqual(common.replies.value, 7)
      assert.isNull(common.reposts.value)
      assert.isNull(common.watchTimeSeconds.value)
      assert.strictEqual(answer.figures.get("vidB")!.viewCount, 0)
      assert.isFalse(answer.figures.has("gone"))
    })
  )

  it.effect("a grant without a scope that reads videos: NotOffered, with what to do", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected()
      fake.state.readScopeMissing = true
      const answer = yield* network.publisher.metrics!.read({ account, credentials, posts: posts("vidA") })
      assert(answer._tag === "NotOffered")
      assert.include(answer.reason, "scope")
    })
  )

  it.effect("quotaExceeded closes reads until midnight Pacific; the quota Herald counts does too", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected()
      fake.state.quotaExceeded = true
      const first = yield* Effect.flip(network.publisher.metrics!.read({ account, credentials, posts: posts("vidA") }))
      assert.strictEqual(first.reason._tag, "RateLimited")
      const before = fake.calls("GET", "/youtube/v3/videos").length
      const second = yield* Effect.flip(network.publisher.metrics!.read({ account, credentials, posts: posts("vidA") }))
      assert.strictEqual(second.reason._tag, "RateLimited")
      assert.strictEqual(fake.calls("GET", "/youtube/v3/videos").length, before)
      // A project whose counted units reach the cap (connecting spent one) stops before YouTube says so.
      const capped = yield* connected(2)
      yield* capped.network.publisher.metrics!.read({ ...capped, posts: posts("vidA") })
      const third = yield* Effect.flip(capped.network.publisher.metrics!.read({ ...capped, posts: posts("vidA") }))
      assert.strictEqual(third.reason._tag, "RateLimited")
    })
  )
})
