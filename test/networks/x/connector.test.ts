import { createHash } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeX, startFakeX } from "./fakeX.ts"
import { authorize, CALLBACK, connect, setNow, T0, xOn } from "./support.ts"

let fake: FakeX
beforeAll(async () => void (fake = await startFakeX()))
afterAll(() => fake.close())

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")

describe("X connector against the fake X", () => {
  it.effect(
    "connects with PKCE (S256) and Basic client auth, reads the profile, and keeps a 2-hour token with its refresh token",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* xOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        const url = new URL(begun.url)
        assert.strictEqual(`${url.origin}${url.pathname}`, fake.authorizeUrl)
        assert.deepStrictEqual(Object.fromEntries(url.searchParams), {
          response_type: "code",
          client_id: fake.clientId,
          redirect_uri: CALLBACK,
          scope: "tweet.read tweet.write users.read offline.access media.write",
          state: "st-1",
          code_challenge: challengeOf(begun.verifier!),
          code_challenge_method: "S256"
        })
        const params = yield* authorize(begun.url)
        assert.strictEqual(params.state, "st-1")
        const [connection] = yield* network.connector.complete({
          params,
          callbackUrl: CALLBACK,
          verifier: begun.verifier
        })
        assert.deepStrictEqual(connection.profile, {
          externalId: "1001",
          name: "Alice Example",
          username: "alice",
          avatarUrl: "https://pbs.twimg.com/profile_images/1/alice_normal.jpg"
        })
        assert.strictEqual(connection.credentials?.expiresAt, T0 + 7200 * 1000)
        assert.match(connection.credentials?.refreshToken ?? "", /^rt_/)
        const [exchange] = fake.calls("POST", "/2/oauth2/token").slice(-1)
        // The secret's - and _ reach X as they are: base64 of id:secret, not of their form-encoding.
        assert.strictEqual(
          exchange.headers.authorization,
          `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`
        )
        assert.deepInclude(exchange.body as object, {
          grant_type: "authorization_code",
          code: params.code,
          redirect_uri: CALLBACK,
          code_verifier: begun.verifier
        })
        const [me] = fake.calls("GET", "/2/users/me").slice(-1)
        assert.strictEqual(me.headers.authorization, `Bearer ${connection.credentials?.accessToken}`)
        assert.strictEqual(me.query["user.fields"], "profile_image_url")
      })
  )

  it.effect("a code exchanged with the wrong verifier is refused by X, with X's words", () =>
    Effect.gen(function* () {
      const { network } = yield* xOn(fake)
      const begun = yield* network.connector.begin({ state: "st-2", callbackUrl: CALLBACK, formUrl: "" })
      const params = yield* authorize(begun.url)
      const error = yield* Effect.flip(
        network.connector.complete({
          params,
          callbackUrl: CALLBACK,
          verifier: "not-the-verifier-that-made-the-challenge-xxxxx"
        })
      )
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "Value passed for the authorization code was invalid.")
    })
  )

  it.effect("a person who declines comes back with X's error, not a crash", () =>
    Effect.gen(function* () {
      const { network } = yield* xOn(fake)
      const error = yield* Effect.flip(
        network.connector.complete({
          params: { state: "st-3", error: "access_denied" },
          callbackUrl: CALLBACK,
          verifier: "v"
        })
      )
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "Access was not granted on the network's page.")
    })
  )

  it.effect(
    "refresh rotates: the new refresh token is returned and the old one stops working (GrantRevoked with X's message)",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* xOn(fake)
        const { credentials } = yield* connect(network)
        yield* setNow(fake, T0 + 7000 * 1000)
        const renewed = yield* network.connector.refresh!(credentials!)
        assert.notStrictEqual(renewed.accessToken, credentials!.accessToken)
        assert.notStrictEqual(renewed.refreshToken, credentials!.refreshToken)
        assert.match(renewed.refreshToken ?? "", /^rt_/)
        assert.strictEqual(renewed.expiresAt, T0 + 7000 * 1000 + 7200 * 1000)
        assert.deepInclude(fake.calls("POST", "/2/oauth2/token").at(-1)!.body as object, {
          grant_type: "refresh_token",
          refresh_token: credentials!.refreshToken
        })
        const again = yield* Effect.flip(network.connector.refresh!(credentials!))
        assert.strictEqual(again._tag, "GrantRevoked")
        assert.include(again.message, "Value passed for the token was invalid.")
        // The rotated one still works.
        const third = yield* network.connector.refresh!(renewed)
        assert.match(third.accessToken, /^at_/)
      })
  )

  it.effect("X down or throttled at the token endpoint is 'later' (NetworkUnavailable), not a revoked grant", () =>
    Effect.gen(function* () {
      const { network } = yield* xOn(fake)
      const { credentials } = yield* connect(network)
      fake.script("POST", "/2/oauth2/token", { status: 503, body: { title: "Service Unavailable" } })
      const down = yield* Effect.flip(network.connector.refresh!(credentials!))
      assert.strictEqual(down._tag, "NetworkUnavailable")
      fake.script("POST", "/2/oauth2/token", { status: 429, body: {}, headers: { "retry-after": "30" } })
      const throttled = yield* Effect.flip(network.connector.refresh!(credentials!))
      assert.strictEqual(throttled._tag, "NetworkUnavailable")
      assert.strictEqual(throttled._tag === "NetworkUnavailable" ? throttled.retryAfterMs : 0, 30_000)
      // Neither used the refresh token up.
      const renewed = yield* network.connector.refresh!(credentials!)
      assert.match(renewed.accessToken, /^at_/)
    })
  )
})
