import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeLinkedIn, startFakeLinkedIn } from "./fakeLinkedIn.ts"
import { authorize, CALLBACK, connect, linkedInOn, setNow, T0 } from "./support.ts"

let fake: FakeLinkedIn
beforeAll(async () => void (fake = await startFakeLinkedIn()))
afterAll(() => fake.close())

describe("LinkedIn connector against the fake LinkedIn", () => {
  it.effect(
    "connects the member and each page it administers as its own account, with client_secret_post and no PKCE; a 60-day token and the refresh token's fixed end",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        fake.state.authorizeAs = "m-alice"
        const { network } = yield* linkedInOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        assert.isNull(begun.verifier)
        const url = new URL(begun.url)
        assert.strictEqual(`${url.origin}${url.pathname}`, fake.authorizeUrl)
        assert.deepStrictEqual(Object.fromEntries(url.searchParams), {
          response_type: "code",
          client_id: fake.clientId,
          redirect_uri: CALLBACK,
          state: "st-1",
          scope: "openid profile w_member_social w_organization_social r_organization_social rw_organization_admin"
        })
        const params = yield* authorize(begun.url)
        const connections = yield* network.connector.complete({ params, callbackUrl: CALLBACK, verifier: null })
        // The ANALYST page cannot be posted to: not an account.
        assert.deepStrictEqual(
          connections.map((c) => c.profile),
          [
            {
              externalId: "urn:li:person:m-alice",
              name: "Alice Example",
              username: "Alice Example",
              avatarUrl: "https://media.licdn.com/dms/image/alice.jpg"
            },
            {
              externalId: "urn:li:organization:2414183",
              name: "Herald Example Corp",
              username: "herald-example",
              avatarUrl: null
            }
          ]
        )
        const credentials = connections[0].credentials!
        assert.deepStrictEqual(connections[1].credentials, credentials)
        assert.strictEqual(credentials.expiresAt, T0 + 5_184_000_000)
        assert.strictEqual(credentials.refreshExpiresAt, T0 + 31_536_000_000)
        const exchange = fake.calls("POST", "/oauth/v2/accessToken").at(-1)!
        assert.deepStrictEqual(exchange.body, {
          grant_type: "authorization_code",
          code: params.code,
          redirect_uri: CALLBACK,
          client_id: fake.clientId,
          client_secret: fake.clientSecret
        })
        assert.isUndefined(exchange.headers.authorization)
        const acls = fake.calls("GET", "/rest/organizationAcls").at(-1)!
        assert.deepInclude(acls.query, { q: "roleAssignee", state: "APPROVED" })
        assert.strictEqual(acls.headers["linkedin-version"], "202607")
        assert.strictEqual(acls.headers["x-restli-protocol-version"], "2.0.0")
      })
  )

  it.effect("with organizations off, only the member: no page scopes asked, no pages read", () =>
    Effect.gen(function* () {
      const { network } = yield* linkedInOn(fake, { organizations: false })
      const begun = yield* network.connector.begin({ state: "st-2", callbackUrl: CALLBACK, formUrl: "" })
      assert.strictEqual(new URL(begun.url).searchParams.get("scope"), "openid profile w_member_social")
      const acls = fake.calls("GET", "/rest/organizationAcls").length
      const connections = yield* network.connector.complete({
        params: yield* authorize(begun.url),
        callbackUrl: CALLBACK,
        verifier: null
      })
      assert.deepStrictEqual(
        connections.map((c) => c.profile.externalId),
        ["urn:li:person:m-alice"]
      )
      assert.strictEqual(fake.calls("GET", "/rest/organizationAcls").length, acls)
    })
  )

  it.effect("an app without refresh tokens: none stored, the grant ends with the access token", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0)
      fake.state.refreshTokens = false
      const { network } = yield* linkedInOn(fake)
      const [member] = yield* connect(network)
      fake.state.refreshTokens = true
      assert.isNull(member.credentials!.refreshToken)
      assert.isUndefined(member.credentials!.refreshExpiresAt)
      const refused = yield* Effect.flip(network.connector.refresh!(member.credentials!))
      assert.strictEqual(refused._tag, "GrantRevoked")
    })
  )

  it.effect(
    "refresh: a new 60-day access token, the same refresh token and its fixed end; a refused refresh is GrantRevoked with LinkedIn's words",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* linkedInOn(fake)
        const [member] = yield* connect(network)
        yield* setNow(fake, T0 + 50 * 86_400_000)
        const renewed = yield* network.connector.refresh!(member.credentials!)
        assert.notStrictEqual(renewed.accessToken, member.credentials!.accessToken)
        assert.strictEqual(renewed.refreshToken, member.credentials!.refreshToken)
        assert.strictEqual(renewed.expiresAt, T0 + 50 * 86_400_000 + 5_184_000_000)
        assert.strictEqual(renewed.refreshExpiresAt, T0 + 31_536_000_000)
        assert.deepInclude(fake.calls("POST", "/oauth/v2/accessToken").at(-1)!.body as object, {
          grant_type: "refresh_token",
          refresh_token: member.credentials!.refreshToken,
          client_secret: fake.clientSecret
        })
        fake.revoke("m-alice")
        const refused = yield* Effect.flip(network.connector.refresh!(renewed))
        assert.strictEqual(refused._tag, "GrantRevoked")
        assert.include(refused.message, "invalid, expired or revoked")
      })
  )

  it.effect(
    "a person who cancels comes back with LinkedIn's error; a code for another redirect URI is refused with LinkedIn's words",
    () =>
      Effect.gen(function* () {
        const { network } = yield* linkedInOn(fake)
        const cancelled = yield* Effect.flip(
          network.connector.complete({
            params: {
              state: "s",
              error: "user_cancelled_authorize",
              error_description: "The user cancelled the authorization"
            },
            callbackUrl: CALLBACK,
            verifier: null
          })
        )
        assert.strictEqual(cancelled.code, "upstream_rejected")
        // LinkedIn's own code is not RFC 6749's: one fixed sentence, never the URL's description.
        assert.include(cancelled.detail ?? "", "did not grant access")
        assert.notInclude(cancelled.detail ?? "", "The user cancelled the authorization")
        const begun = yield* network.connector.begin({ state: "st-3", callbackUrl: CALLBACK, formUrl: "" })
        const params = yield* authorize(begun.url)
        const refused = yield* Effect.flip(
          network.connector.complete({ params, callbackUrl: "http://elsewhere.test/cb", verifier: null })
        )
        assert.strictEqual(refused.code, "upstream_rejected")
        assert.include(refused.detail ?? "", "redirect uri/code verifier does not match")
      })
  )

  it.effect("LinkedIn down at the token endpoint is NetworkUnavailable, not a revoked grant", () =>
    Effect.gen(function* () {
      const { network } = yield* linkedInOn(fake)
      const [member] = yield* connect(network)
      fake.script("POST", "/oauth/v2/accessToken", { status: 503, body: { message: "Service Unavailable" } })
      assert.strictEqual(
        (yield* Effect.flip(network.connector.refresh!(member.credentials!)))._tag,
        "NetworkUnavailable"
      )
      assert.match((yield* network.connector.refresh!(member.credentials!)).accessToken, /^AQV_/)
    })
  )
})
