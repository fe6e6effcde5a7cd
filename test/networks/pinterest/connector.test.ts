import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"
import { authorize, CALLBACK, connect, pinterestOn, setNow, T0 } from "./support.ts"

let fake: FakePinterest
beforeAll(async () => void (fake = await startFakePinterest()))
afterAll(() => fake.close())

describe("Pinterest connector against the fake Pinterest", () => {
  it.effect(
    "connects with Basic client auth and comma-separated scopes, asking for continuous refresh; 30-day token, 60-day refresh token",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* pinterestOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        assert.isNull(begun.verifier)
        assert.deepStrictEqual(Object.fromEntries(new URL(begun.url).searchParams), {
          response_type: "code",
          client_id: fake.clientId,
          redirect_uri: CALLBACK,
          scope: "boards:read,pins:read,pins:write,user_accounts:read",
          state: "st-1"
        })
        const [connection] = yield* network.connector.complete({
          params: yield* authorize(begun.url),
          callbackUrl: CALLBACK,
          verifier: null
        })
        assert.deepStrictEqual(connection.profile, {
          externalId: "549755813999",
          name: "Alice's Kitchen",
          username: "alicepins",
          avatarUrl: "https://i.pinimg.com/alicepins.jpg"
        })
        assert.strictEqual(connection.credentials?.expiresAt, T0 + 2_592_000_000)
        assert.strictEqual(connection.credentials?.refreshExpiresAt, T0 + 5_184_000_000)
        const exchange = fake.calls("POST", "/v5/oauth/token").at(-1)!
        assert.strictEqual(
          exchange.headers.authorization,
          `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`
        )
        assert.deepInclude(exchange.body as object, {
          grant_type: "authorization_code",
          redirect_uri: CALLBACK,
          continuous_refresh: "true"
        })
      })
  )

  it.effect(
    "continuous refresh: a new refresh token with a new 60 days at each renewal; the old one is refused (GrantRevoked)",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* pinterestOn(fake)
        const { credentials } = yield* connect(fake, network)
        yield* setNow(fake, T0 + 29 * 86_400_000)
        const renewed = yield* network.connector.refresh!(credentials!)
        assert.notStrictEqual(renewed.refreshToken, credentials!.refreshToken)
        assert.strictEqual(renewed.refreshExpiresAt, T0 + 29 * 86_400_000 + 5_184_000_000)
        const refused = yield* Effect.flip(network.connector.refresh!(credentials!))
        assert.strictEqual(refused._tag, "GrantRevoked")
        assert.include(refused.message, "Invalid refresh token.")
      })
  )
})
