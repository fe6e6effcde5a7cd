import { createHash } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import { connectAll, type ServedBlobs, serveBlobs } from "../shared/harness.ts"
import { type FakeGoogleBusiness, serviceDisabled, startFakeGoogleBusiness } from "./fakeGoogleBusiness.ts"
import { authorize, businessOn, CALLBACK, setNow, T0 } from "./support.ts"

let fake: FakeGoogleBusiness
let served: ServedBlobs
beforeAll(async () => {
  fake = await startFakeGoogleBusiness()
  served = await serveBlobs(HmacFileLinks.make("test"))
})
afterAll(async () => {
  await fake.close()
  await served.close()
})

describe("Google Business Profile connector against the fake Google", () => {
  it.effect("asks for business.manage with PKCE, offline access and consent, on its own client", () =>
    Effect.gen(function* () {
      const network = businessOn(fake, served.blobs)
      const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
      assert.deepStrictEqual(Object.fromEntries(new URL(begun.url).searchParams), {
        response_type: "code",
        client_id: fake.clientId,
        redirect_uri: CALLBACK,
        state: "st-1",
        scope: "https://www.googleapis.com/auth/business.manage",
        code_challenge: createHash("sha256").update(begun.verifier!).digest("base64url"),
        code_challenge_method: "S256",
        access_type: "offline",
        prompt: "consent",
        include_granted_scopes: "true"
      })
    })
  )

  it.effect(
    "every location of every account (all pages of both lists) becomes an account, once; each names its v4 parent",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        fake.state.authorizeAs = "g-alice"
        const network = businessOn(fake, served.blobs)
        const connections = yield* connectAll(network)
        assert.deepStrictEqual(
          connections.map((c) => c.profile),
          [
            {
              externalId: "locations/9001",
              name: "Alice's Bakery",
              username: "12 Rue des Fleurs, Paris",
              avatarUrl: null
            },
            {
              externalId: "locations/9002",
              name: "Alice's Bakery Lyon",
              username: "Alice's Bakery Lyon",
              avatarUrl: null
            },
            {
              externalId: "locations/9003",
              name: "Alice's Bakery Nice",
              username: "3 Promenade, Nice",
              avatarUrl: null
            }
          ]
        )
        assert.deepStrictEqual(
          connections.map((c) => c.credentials?.extra),
          [
            { account: "accounts/1110001", location: "locations/9001" },
            { account: "accounts/2220002", location: "locations/9002" },
            { account: "accounts/2220002", location: "locations/9003" }
          ]
        )
        const [first] = connections
        assert.strictEqual(first.credentials?.expiresAt, T0 + 3599 * 1000)
        assert.match(first.credentials?.refreshToken ?? "", /^1\/\//)
        assert.deepInclude(fake.calls("POST", "/token").at(-1)!.body as object, {
          grant_type: "authorization_code",
          client_secret: fake.clientSecret
        })
        // One location per page: the accounts in two pages, the group's locations in three.
        assert.deepStrictEqual(
          fake
            .calls("GET", "/v1/accounts")
            .slice(-2)
            .map((r) => r.query.pageToken ?? null),
          [null, "1"]
        )
        const group = fake.calls("GET", "/v1/accounts/2220002/locations").slice(-3)
        assert.deepStrictEqual(
          group.map((r) => r.query.pageToken ?? null),
          [null, "1", "2"]
        )
        assert.strictEqual(group[0].query.readMask, "name,title,storefrontAddress")
      })
  )

  it.effect("a Google account that manages no location is refused with a clear message", () =>
    Effect.gen(function* () {
      fake.state.authorizeAs = "g-nobody"
      const error = yield* Effect.flip(connectAll(businessOn(fake, served.blobs)))
      fake.state.authorizeAs = "g-alice"
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "manages no Business Profile location")
    })
  )

  it.effect("an account whose locations Google refuses is left out (logged); the others connect", () =>
    Effect.gen(function* () {
      fake.state.authorizeAs = "g-alice"
      fake.script("GET", "/v1/accounts/2220002/locations", {
        status: 403,
        body: { error: { code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED" } }
      })
      const connections = yield* connectAll(businessOn(fake, served.blobs))
      assert.deepStrictEqual(
        connections.map((c) => c.profile.externalId),
        ["locations/9001"]
      )
    })
  )

  it.effect("the APIs not enabled for the project: Google's own words reach the person", () =>
    Effect.gen(function* () {
      fake.script("GET", "/v1/accounts", serviceDisabled)
      const error = yield* Effect.flip(connectAll(businessOn(fake, served.blobs)))
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "has not been used in project 123456789")
    })
  )

  it.effect("refresh keeps the location with the new token; invalid_grant is GrantRevoked (needs reconnection)", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0)
      const network = businessOn(fake, served.blobs)
      const begun = yield* network.connector.begin({ state: "s", callbackUrl: CALLBACK, formUrl: "" })
      const [connection] = yield* network.connector.complete({
        params: yield* authorize(begun.url),
        callbackUrl: CALLBACK,
        verifier: begun.verifier
      })
      const credentials = connection.credentials!
      const renewed = yield* network.connector.refresh!(credentials)
      assert.notStrictEqual(renewed.accessToken, credentials.accessToken)
      assert.deepStrictEqual(renewed.extra, credentials.extra)
      assert.isNull(renewed.refreshToken, "Google sends none: Herald keeps the stored one (credentials.ts)")
      fake.revoke("g-alice")
      const refused = yield* Effect.flip(network.connector.refresh!(credentials))
      assert.strictEqual(refused._tag, "GrantRevoked")
      assert.include(refused.message, "Token has been expired or revoked.")
    })
  )
})
