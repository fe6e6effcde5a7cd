import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as BlueskyMetrics from "../../../adapters/networks/bluesky/metrics.ts"
import { makeRateGate } from "../../../adapters/networks/shared/rateGate.ts"
import { normalise } from "../../../domain/metrics.ts"
import { connectedAccount } from "../shared/harness.ts"
import { type FakeAppView, startFakeAppView } from "./fakeAppView.ts"

let fake: FakeAppView
beforeAll(async () => void (fake = await startFakeAppView()))
afterAll(() => fake.close())

const account = connectedAccount({
  id: "acc_b1",
  platform: "bluesky",
  name: "Alice",
  username: "alice.test",
  externalId: "did:plc:alice"
})
const uri = (n: number) => `at://did:plc:alice/app.bsky.feed.post/3k${String(n).padStart(11, "0")}`
const read = (metrics: ReturnType<typeof BlueskyMetrics.make>, uris: ReadonlyArray<string>) =>
  metrics.read({ account, credentials: null, posts: uris.map((externalId) => ({ externalId, publishedAt: 0 })) })

describe("Bluesky metrics against a local AppView", () => {
  it.effect("getPosts with up to 25 URIs, no login; counts under Bluesky's names; views null with a reason", () =>
    Effect.gen(function* () {
      fake.posts.set(uri(1), { likeCount: 5, repostCount: 2, quoteCount: 1, replyCount: 3, bookmarkCount: 4 })
      fake.posts.set(uri(2), {})
      const metrics = BlueskyMetrics.make(fake.origin, makeRateGate())
      assert.strictEqual(metrics.batch, 25)
      const answer = yield* read(metrics, [uri(1), uri(2), uri(3)])
      const [call] = fake.calls("GET", "/xrpc/app.bsky.feed.getPosts").slice(-1)
      assert.isUndefined(call.headers.authorization)
      assert(answer._tag === "Read")
      const common = normalise("bluesky", answer.figures.get(uri(1))!)
      assert.strictEqual(common.likes.value, 5)
      assert.strictEqual(common.reposts.value, 3)
      assert.strictEqual(common.saves.value, 4)
      assert.isNull(common.views.value)
      assert.include(common.views.reason!, "no views")
      assert.strictEqual(answer.figures.get(uri(2))!.likeCount, 0)
      assert.isFalse(answer.figures.has(uri(3)))
    })
  )

  it.effect("a 429 closes reads until the RateLimit-Reset the AppView named", () =>
    Effect.gen(function* () {
      const metrics = BlueskyMetrics.make(fake.origin, makeRateGate())
      fake.state.used = fake.state.limit
      fake.state.resetAt = Math.floor(Date.now() / 1000) + 120
      const before = fake.calls("GET", "/xrpc/app.bsky.feed.getPosts").length
      const first = yield* Effect.flip(read(metrics, [uri(1)]))
      assert.strictEqual(first.reason._tag, "RateLimited")
      assert.isAbove(first.retryAfterMs!, 60_000)
      yield* Effect.flip(read(metrics, [uri(1)]))
      assert.strictEqual(fake.calls("GET", "/xrpc/app.bsky.feed.getPosts").length - before, 1)
      fake.state.used = 0
    })
  )
})
