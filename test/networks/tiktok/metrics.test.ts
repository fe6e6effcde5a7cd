import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import { type FakeTikTok, startFakeTikTok } from "./fakeTikTok.ts"
import { accountOf, connect, setNow, T0, tiktokOn } from "./support.ts"

let fake: FakeTikTok
beforeAll(async () => void (fake = await startFakeTikTok()))
afterAll(() => fake.close())

let minute = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++minute * 3_600_000)
  fake.state.limits = { init: 6, status: 30, query: 600 }
  const { network } = yield* tiktokOn(fake)
  const connection = yield* connect(fake, network)
  return { network, account: accountOf(connection), credentials: connection.credentials! }
})

const posts = (...ids: ReadonlyArray<string>) => ids.map((externalId) => ({ externalId, publishedAt: T0 }))

describe("TikTok metrics against the fake TikTok", () => {
  it.effect("POST /v2/video/query/ with up to 20 ids: counts under TikTok's names", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.setCounts("7440000000000000001", { view_count: 900, like_count: 80, comment_count: 6, share_count: 5 })
      const before = fake.calls("POST", "/v2/video/query/").length
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: posts("7440000000000000001", "7440000000000000002")
      })
      const calls = fake.calls("POST", "/v2/video/query/").slice(before)
      assert.strictEqual(calls.length, 1)
      assert.deepStrictEqual((calls[0].body as any).filters.video_ids, ["7440000000000000001", "7440000000000000002"])
      assert(answer._tag === "Read")
      const common = normalise("tiktok", answer.figures.get("7440000000000000001")!)
      assert.strictEqual(common.views.value, 900)
      assert.strictEqual(common.reposts.value, 5)
      assert.isNull(common.saves.value)
      assert.isFalse(answer.figures.has("7440000000000000002"))
    })
  )

  it.effect("a grant without video.list: NotOffered (scope_not_authorized), the account stays connected", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + ++minute * 3_600_000)
      const { network } = yield* tiktokOn(fake)
      const connection = yield* connect(fake, network)
      // An account connected before Herald asked for video.list.
      const old = fake.narrowScope(connection.credentials!.accessToken, "user.info.basic,video.publish")
      const answer = yield* network.publisher.metrics!.read({
        account: accountOf(connection),
        credentials: { ...connection.credentials!, accessToken: old },
        posts: posts("1")
      })
      assert(answer._tag === "NotOffered")
      assert.include(answer.reason, "video.list")
    })
  )

  it.effect("600 a minute per token: past it, rate limited and TikTok not called again within the minute", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.state.limits = { init: 6, status: 30, query: 1 }
      const read = network.publisher.metrics!.read({ account, credentials, posts: posts("1") })
      yield* read
      const before = fake.calls("POST", "/v2/video/query/").length
      assert.strictEqual((yield* Effect.flip(read)).reason._tag, "RateLimited")
      assert.strictEqual((yield* Effect.flip(read)).reason._tag, "RateLimited")
      assert.strictEqual(fake.calls("POST", "/v2/video/query/").length - before, 1)
    })
  )
})
