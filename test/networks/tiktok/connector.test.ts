import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeTikTok, startFakeTikTok } from "./fakeTikTok.ts"
import { authorize, CALLBACK, connect, setNow, T0, tiktokOn } from "./support.ts"

let fake: FakeTikTok
beforeAll(async () => void (fake = await startFakeTikTok()))
afterAll(() => fake.close())

describe("TikTok connector against the fake TikTok", () => {
  it.effect(
    "connects with client_key (no PKCE), comma-separated scopes; the creator's open_id and username; the refresh token's end",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* tiktokOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        assert.isNull(begun.verifier)
        const query = Object.fromEntries(new URL(begun.url).searchParams)
        assert.deepInclude(query, {
          client_key: fake.clientKey,
          scope: "user.info.basic,video.publish,video.upload,video.list",
          redirect_uri: CALLBACK,
          response_type: "code",
          state: "st-1"
        })
        const [connection] = yield* network.connector.complete({
          params: yield* authorize(begun.url),
          callbackUrl: CALLBACK,
          verifier: null
        })
        assert.deepStrictEqual(connection.profile, {
          externalId: "_000aliceOpenId",
          name: "Alice",
          username: "alice.makes",
          avatarUrl: "https://p16.tiktokcdn.com/alice.makes.jpeg"
        })
        assert.strictEqual(connection.credentials?.expiresAt, T0 + 86_400_000)
        assert.strictEqual(connection.credentials?.refreshExpiresAt, T0 + 31_536_000_000)
        assert.deepInclude(fake.calls("POST", "/v2/oauth/token/").at(-1)!.body as object, {
          client_key: fake.clientKey,
          client_secret: fake.clientSecret,
          grant_type: "authorization_code",
          redirect_uri: CALLBACK
        })
      })
  )

  it.effect(
    "refresh rotates: a new refresh token, the old one refused (GrantRevoked with TikTok's words, though TikTok answered 200)",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* tiktokOn(fake)
        const { credentials } = yield* connect(fake, network)
        yield* setNow(fake, T0 + 3600_000)
        const renewed = yield* network.connector.refresh!(credentials!)
        assert.notStrictEqual(renewed.refreshToken, credentials!.refreshToken)
        assert.strictEqual(renewed.refreshExpiresAt, T0 + 31_536_000_000, "the refresh token's end does not move")
        assert.deepInclude(fake.calls("POST", "/v2/oauth/token/").at(-1)!.body as object, {
          grant_type: "refresh_token",
          refresh_token: credentials!.refreshToken,
          client_key: fake.clientKey
        })
        const again = yield* Effect.flip(network.connector.refresh!(credentials!))
        assert.strictEqual(again._tag, "GrantRevoked")
        assert.include(again.message, "Refresh token is invalid or expired.")
        assert.match((yield* network.connector.refresh!(renewed)).accessToken, /^act\./)
      })
  )
})
