import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { viewOf } from "../shared/reason.ts"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"
import { accountOf, connect, pinterestOn, publishedOf, request, setNow, T0, upload } from "./support.ts"

let fake: FakePinterest
beforeAll(async () => void (fake = await startFakePinterest()))
afterAll(() => fake.close())

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  const { network, blobs } = yield* pinterestOn(fake)
  const connection = yield* connect(fake, network, "p-alice")
  return { blobs, publisher: network.publisher, credentials: connection.credentials!, account: accountOf(connection) }
})

describe("Pinterest take-down against the fake Pinterest (DELETE /v5/pins/{pin_id})", () => {
  it.effect("removes the pin with the bearer token; already gone is done; 429 waits for Retry-After; 401", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected
      const image = (yield* upload(blobs, "image", "image/jpeg", 40_000)).media
      const pinReq = request(account, credentials, {
        media: [image],
        options: { pinterest: { boardId: "549755885176" } }
      })
      const pin = publishedOf(yield* publisher.publish(pinReq, yield* publisher.prepare!(pinReq)))
      const removal = (externalId: string) => publisher.unpublish!({ account, credentials, externalId, kind: "post" })
      yield* removal(pin.externalId)
      const [call] = fake.calls("DELETE", `/v5/pins/${pin.externalId}`)
      assert.strictEqual(call!.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.isFalse(fake.pins.some((p) => p.id === pin.externalId))
      yield* removal(pin.externalId)

      const other = publishedOf(yield* publisher.publish(pinReq, yield* publisher.prepare!(pinReq)))
      fake.script("DELETE", `/v5/pins/${other.externalId}`, {
        status: 429,
        body: { code: 8, message: "Rate limit exceeded." },
        headers: { "retry-after": "42" }
      })
      assert.deepInclude(viewOf(yield* Effect.flip(removal(other.externalId))), {
        reason: "RateLimited",
        retryAfterMs: 42_000
      })
      assert.isTrue(fake.pins.some((p) => p.id === other.externalId))
      const fresh = yield* connected
      fake.expireAccess("p-alice")
      const expired = yield* Effect.flip(
        fresh.publisher.unpublish!({ account, credentials, externalId: other.externalId, kind: "post" })
      )
      assert.strictEqual(expired.reason._tag, "Unauthorized")
    })
  )
})
