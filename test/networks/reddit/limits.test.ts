import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { viewOf } from "../shared/reason.ts"
import { type FakeReddit, startFakeReddit } from "./fakeReddit.ts"
import { connectedOn, publishedOf, request } from "./support.ts"

let fake: FakeReddit
beforeAll(async () => void (fake = await startFakeReddit()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "alice") => connectedOn(fake, ++day, as)
const about = (name: string) => ({
  kind: "t5",
  data: { display_name: name, subreddit_type: "public", submission_type: "any" }
})

describe("Reddit's limits and tokens", () => {
  it.effect("a 429 holds the account's calls until X-Ratelimit-Reset, without reaching Reddit meanwhile", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      fake.script("GET", "/r/HeraldTest/about", {
        status: 429,
        body: { message: "Too Many Requests", error: 429 },
        headers: { "x-ratelimit-used": "600", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "120" }
      })
      const limited = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.deepInclude(viewOf(limited), { code: "rate_limited", reason: "RateLimited", retryAfterMs: 120_000 })
      const calls = fake.requests.length
      const held = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.deepInclude(viewOf(held), { code: "rate_limited", retryAfterMs: 120_000 })
      assert.lengthOf(fake.requests, calls)
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* Effect.flip(publisher.publish(request(account, credentials)))).retryAfterMs, 60_000)
      yield* TestClock.adjust(60_000)
      publishedOf(yield* publisher.publish(request(account, credentials)))
    })
  )

  it.effect("X-Ratelimit-Remaining 0 on an answer closes the window until its reset: the next call waits", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      fake.script("GET", "/r/HeraldTest/about", {
        status: 200,
        body: about("HeraldTest"),
        headers: { "x-ratelimit-used": "1000", "x-ratelimit-remaining": "0.0", "x-ratelimit-reset": "30" }
      })
      const before = fake.calls("GET", "/api/v1/HeraldTest/post_requirements").length
      const waited = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.deepInclude(viewOf(waited), { code: "rate_limited", retryAfterMs: 30_000 })
      assert.lengthOf(fake.calls("GET", "/api/v1/HeraldTest/post_requirements"), before)
      yield* TestClock.adjust(30_000)
      publishedOf(yield* publisher.publish(request(account, credentials)))
    })
  )

  it.effect(
    "the fake's own window: the answer that spends it says Remaining 0, and Herald makes no call Reddit would refuse",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        // Connecting used one call (GET /api/v1/me); the subreddit's about spends the second.
        fake.state.windowCalls = 2
        const limited = yield* Effect.flip(publisher.publish(request(account, credentials))).pipe(
          Effect.ensuring(Effect.sync(() => void (fake.state.windowCalls = 1000)))
        )
        assert.strictEqual(limited.code, "rate_limited")
        const last = fake.requests.at(-1)!
        assert.strictEqual(last.path, "/r/HeraldTest/about")
        assert.isAbove(limited.retryAfterMs!, 500_000)
      })
  )

  it.effect("an expired token is Unauthorized (the pipeline renews once); the renewed token posts", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account } = yield* connected()
      fake.expireAccess("alice")
      const refused = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.deepInclude(viewOf(refused), { code: "account_needs_reconnection", reason: "Unauthorized" })
      const renewed = yield* network.connector.refresh!(credentials)
      publishedOf(yield* publisher.publish(request(account, renewed)))
    })
  )

  it.effect("a generic User-Agent is what Reddit throttles: Herald always sends its configured one", () =>
    Effect.gen(function* () {
      yield* connected()
      const agents = new Set(
        fake.requests.filter((r) => r.path !== "/api/v1/authorize").map((r) => r.headers["user-agent"])
      )
      assert.deepStrictEqual([...agents], [fake.userAgent])
    })
  )
})
