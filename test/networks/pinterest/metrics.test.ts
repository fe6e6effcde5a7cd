import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"
import { accountOf, connect, pinterestOn, setNow, T0 } from "./support.ts"

let fake: FakePinterest
beforeAll(async () => void (fake = await startFakePinterest()))
afterAll(() => fake.close())

let hour = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++hour * 3_600_000)
  fake.state.noAnalytics.clear()
  fake.state.readsPerMinute = 1000
  const { network } = yield* pinterestOn(fake)
  const connection = yield* connect(fake, network)
  return { network, account: accountOf(connection), credentials: connection.credentials! }
})

describe("Pinterest metrics against the fake Pinterest", () => {
  it.effect("GET /v5/pins/{id}/analytics from the day of publishing; saves and outbound clicks, no likes", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.setFigures("1083000000000000777", { IMPRESSION: 300, SAVE: 12, OUTBOUND_CLICK: 9, PIN_CLICK: 20 })
      const publishedAt = T0 - 3 * 86_400_000
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: "1083000000000000777", publishedAt }]
      })
      const [call] = fake.calls("GET", "/v5/pins/1083000000000000777/analytics").slice(-1)
      assert.strictEqual(call.query.start_date, new Date(publishedAt).toISOString().slice(0, 10))
      assert(answer._tag === "Read")
      const common = normalise("pinterest", answer.figures.get("1083000000000000777")!)
      assert.strictEqual(common.views.value, 300)
      assert.strictEqual(common.saves.value, 12)
      assert.strictEqual(common.clicks.value, 9)
      assert.isNull(common.likes.value)
      assert.include(common.likes.reason!, "Pinterest")
    })
  )

  it.effect("a pin taken down is not measured; an account without analytics is NotOffered", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const gone = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: "1083000000000000999", publishedAt: T0 }]
      })
      assert(gone._tag === "Read")
      assert.strictEqual(gone.figures.size, 0)
      fake.state.noAnalytics.add("p-alice")
      const refused = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: "1083000000000000777", publishedAt: T0 }]
      })
      assert(refused._tag === "NotOffered")
      assert.include(refused.reason, "business account")
    })
  )

  it.effect("the per-minute read limit: rate limited until Pinterest's reset, without calling again", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.state.readsPerMinute = 0
      const read = network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: "1083000000000000777", publishedAt: T0 }]
      })
      const first = yield* Effect.flip(read)
      assert.strictEqual(first.reason._tag, "RateLimited")
      const before = fake.calls("GET", /\/analytics$/).length
      yield* Effect.flip(read)
      assert.strictEqual(fake.calls("GET", /\/analytics$/).length, before)
    })
  )
})
