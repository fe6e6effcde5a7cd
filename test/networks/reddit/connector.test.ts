import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeReddit, startFakeReddit } from "./fakeReddit.ts"
import { authorize, CALLBACK, connect, redditOn, setNow, T0 } from "./support.ts"

let fake: FakeReddit
beforeAll(async () => void (fake = await startFakeReddit()))
afterAll(() => fake.close())

describe("Reddit connector against the fake Reddit", () => {
  it.effect(
    "asks for a permanent grant with Reddit's scopes, Basic client auth and Herald's User-Agent; a day's token with a refresh token",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* redditOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        assert.isNull(begun.verifier)
        assert.deepStrictEqual(Object.fromEntries(new URL(begun.url).searchParams), {
          response_type: "code",
          client_id: fake.clientId,
          redirect_uri: CALLBACK,
          scope: "identity submit read flair mysubreddits edit",
          state: "st-1",
          duration: "permanent"
        })
        const [connection] = yield* network.connector.complete({
          params: yield* authorize(begun.url),
          callbackUrl: CALLBACK,
          verifier: null
        })
        assert.deepStrictEqual(connection!.profile, {
          externalId: "1w72dnj4",
          name: "Alice bakes",
          username: "alice_bakes",
          avatarUrl: "https://styles.redditmedia.com/t5_x/styles/profileIcon_1w72dnj4.png"
        })
        assert.strictEqual(connection!.credentials?.expiresAt, T0 + 86_400_000)
        assert.isString(connection!.credentials?.refreshToken)
        const exchange = fake.calls("POST", "/api/v1/access_token").at(-1)!
        assert.strictEqual(
          exchange.headers.authorization,
          `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`
        )
        assert.strictEqual(exchange.headers["user-agent"], fake.userAgent)
        assert.deepInclude(exchange.body as object, { grant_type: "authorization_code", redirect_uri: CALLBACK })
        assert.strictEqual(fake.calls("GET", "/api/v1/me").at(-1)!.headers["user-agent"], fake.userAgent)
      })
  )

  it.effect("an account without a title is named by its username", () =>
    Effect.gen(function* () {
      const { network } = yield* redditOn(fake)
      const connection = yield* connect(fake, network, "bob")
      assert.strictEqual(connection.profile.name, "bob_builds")
    })
  )

  it.effect("a refused code (Reddit's 200 with invalid_grant) and a declined grant are upstream_rejected", () =>
    Effect.gen(function* () {
      const { network } = yield* redditOn(fake)
      const refused = yield* Effect.flip(
        network.connector.complete({
          params: { code: "not-a-code", state: "s" },
          callbackUrl: CALLBACK,
          verifier: null
        })
      )
      assert.strictEqual(refused.code, "upstream_rejected")
      assert.include(refused.detail, "invalid_grant")
      fake.state.decline = true
      const begun = yield* network.connector.begin({ state: "s2", callbackUrl: CALLBACK, formUrl: "" })
      const params = yield* authorize(begun.url)
      fake.state.decline = false
      const declined = yield* Effect.flip(network.connector.complete({ params, callbackUrl: CALLBACK, verifier: null }))
      assert.strictEqual(declined.code, "upstream_rejected")
      assert.include(declined.detail, "Access was not granted")
    })
  )

  it.effect(
    "refresh renews the access token (the refresh token kept); a revoked grant (invalid_grant) needs reconnection",
    () =>
      Effect.gen(function* () {
        const { network } = yield* redditOn(fake)
        const connection = yield* connect(fake, network, "alice")
        const renewed = yield* network.connector.refresh!(connection.credentials!)
        assert.notStrictEqual(renewed.accessToken, connection.credentials!.accessToken)
        assert.strictEqual(renewed.refreshToken, connection.credentials!.refreshToken)
        assert.deepInclude(fake.calls("POST", "/api/v1/access_token").at(-1)!.body as object, {
          grant_type: "refresh_token",
          refresh_token: connection.credentials!.refreshToken
        })
        fake.revoke("alice")
        const revoked = yield* Effect.flip(network.connector.refresh!(connection.credentials!))
        assert.strictEqual(revoked._tag, "GrantRevoked")
        assert.include(revoked.message, "invalid_grant")
      })
  )

  it.effect(
    "a wrong client secret (401 at the token endpoint) is Herald's configuration, not the account's grant",
    () =>
      Effect.gen(function* () {
        const { network } = yield* redditOn(fake)
        const connection = yield* connect(fake, network, "alice")
        fake.script("POST", "/api/v1/access_token", { status: 401, body: { message: "Unauthorized", error: 401 } })
        const later = yield* Effect.flip(network.connector.refresh!(connection.credentials!))
        assert.strictEqual(later._tag, "NetworkUnavailable")
      })
  )
})
