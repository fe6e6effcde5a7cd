import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  type ClientAuthentication,
  credentialsOf,
  makeOAuth2Client,
  type OAuth2Settings
} from "../../../adapters/networks/shared/oauth2.ts"
import { makeRateGate } from "../../../adapters/networks/shared/rateGate.ts"

/** A token endpoint that records what it is sent and answers what the test sets. */
const seen: Array<{ headers: IncomingMessage["headers"]; form: Record<string, string> }> = []
let answer: { status: number; body: unknown } = { status: 200, body: {} }
let origin = ""
const server = createServer(async (req, res) => {
  let text = ""
  for await (const chunk of req) text += chunk
  seen.push({ headers: req.headers, form: Object.fromEntries(new URLSearchParams(text)) })
  res.writeHead(answer.status, { "content-type": "application/json" })
  res.end(JSON.stringify(answer.body))
})
beforeAll(
  () =>
    new Promise<void>((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resolve()
      })
    )
)
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const settings = (over: Partial<OAuth2Settings> = {}): OAuth2Settings => ({
  clientId: "client id/1",
  clientSecret: Redacted.make("se-cr_et+="),
  authorizeUrl: `${origin}/authorize`,
  tokenUrl: `${origin}/token`,
  scopes: ["a", "b"],
  pkce: true,
  clientAuthentication: "basic",
  timeoutMs: 5000,
  ...over
})

describe("the shared OAuth 2.0 client (for X now, LinkedIn and TikTok later)", () => {
  it.effect.each([
    ["basic", { authorization: `Basic ${Buffer.from("client id/1:se-cr_et+=").toString("base64")}` }, {}],
    [
      "basic-form-encoded",
      { authorization: `Basic ${Buffer.from("client+id%2F1:se%2Dcr%5Fet%2B%3D").toString("base64")}` },
      {}
    ],
    ["post", {}, { client_id: "client id/1", client_secret: "se-cr_et+=" }]
  ] as const)("client authentication %s", ([auth, headers, form]) =>
    Effect.gen(function* () {
      answer = { status: 200, body: { access_token: "at", token_type: "Bearer", expires_in: 60, refresh_token: "rt2" } }
      const client = makeOAuth2Client(settings({ clientAuthentication: auth as ClientAuthentication }))
      const tokens = yield* client.refresh("rt1")
      assert.deepStrictEqual(tokens, {
        accessToken: "at",
        refreshToken: "rt2",
        expiresInSeconds: 60,
        refreshExpiresInSeconds: null,
        scope: null
      })
      const request = seen.at(-1)!
      if ("authorization" in headers) assert.strictEqual(request.headers.authorization, headers.authorization)
      else assert.isUndefined(request.headers.authorization)
      assert.deepInclude(request.form, { grant_type: "refresh_token", refresh_token: "rt1", ...form })
    })
  )

  it.effect("no PKCE, commas between scopes, extra authorize and token parameters (LinkedIn, TikTok)", () =>
    Effect.gen(function* () {
      const client = makeOAuth2Client(
        settings({
          pkce: false,
          scopeSeparator: ",",
          authorizeParams: { client_key: "ck" },
          tokenParams: { client_key: "ck" }
        })
      )
      const begun = yield* client.authorizationUrl({ state: "s", callbackUrl: "https://h/cb" })
      assert.isNull(begun.verifier)
      const query = Object.fromEntries(new URL(begun.url).searchParams)
      assert.deepStrictEqual(query, {
        response_type: "code",
        client_id: "client id/1",
        redirect_uri: "https://h/cb",
        scope: "a,b",
        state: "s",
        client_key: "ck"
      })
      answer = { status: 200, body: { access_token: "at", token_type: "bearer" } }
      const tokens = yield* client.exchangeCode({
        params: { code: "c", state: "s" },
        callbackUrl: "https://h/cb",
        verifier: null
      })
      assert.deepStrictEqual(tokens, {
        accessToken: "at",
        refreshToken: null,
        expiresInSeconds: null,
        refreshExpiresInSeconds: null,
        scope: null
      })
      assert.deepInclude(seen.at(-1)!.form, {
        grant_type: "authorization_code",
        code: "c",
        redirect_uri: "https://h/cb",
        client_key: "ck"
      })
      assert.notProperty(seen.at(-1)!.form, "code_verifier")
    })
  )

  it.effect("a 4xx is a refusal with the network's words; a 5xx or a non-OAuth 4xx body is told apart", () =>
    Effect.gen(function* () {
      const client = makeOAuth2Client(settings())
      answer = { status: 400, body: { error: "invalid_grant", error_description: "Refresh token revoked" } }
      const refused = yield* Effect.flip(client.refresh("rt"))
      assert.deepInclude(refused, {
        _tag: "OAuthRefused",
        error: "invalid_grant",
        message: "invalid_grant: Refresh token revoked"
      })
      answer = { status: 401, body: { detail: "no" } }
      assert.strictEqual((yield* Effect.flip(client.refresh("rt")))._tag, "OAuthRefused")
      answer = { status: 502, body: {} }
      assert.strictEqual((yield* Effect.flip(client.refresh("rt")))._tag, "OAuthUnavailable")
      // Herald's own app refused (a wrong secret in the configuration) is not the account's grant ending.
      for (const error of ["invalid_client", "unauthorized_client"]) {
        answer = { status: 401, body: { error, error_description: "Missing valid authorization header" } }
        const misconfigured = yield* Effect.flip(client.refresh("rt"))
        assert.strictEqual(misconfigured._tag, "OAuthUnavailable", error)
        assert.include(misconfigured.message, "check the client id and secret")
      }
      answer = { status: 200, body: { token_type: "bearer" } }
      assert.strictEqual(
        (yield* Effect.flip(client.refresh("rt")))._tag,
        "OAuthUnavailable",
        "a 200 without a token is not a refusal"
      )
    })
  )

  it("credentials end expires_in after the answer; none when the network gives no lifetime", () => {
    assert.deepStrictEqual(
      credentialsOf(
        { accessToken: "a", refreshToken: "r", expiresInSeconds: 7200, refreshExpiresInSeconds: null, scope: null },
        1000
      ),
      {
        accessToken: "a",
        refreshToken: "r",
        expiresAt: 1000 + 7_200_000
      }
    )
    assert.strictEqual(
      credentialsOf(
        { accessToken: "a", refreshToken: null, expiresInSeconds: null, refreshExpiresInSeconds: null, scope: null },
        1000
      ).expiresAt,
      null
    )
    assert.strictEqual(
      credentialsOf(
        { accessToken: "a", refreshToken: "r", expiresInSeconds: 60, refreshExpiresInSeconds: 86_400, scope: null },
        1000
      ).refreshExpiresAt,
      1000 + 86_400_000
    )
  })

  it.effect(
    "the refresh token's lifetime is read as LinkedIn and Pinterest (refresh_token_expires_in) and TikTok (refresh_expires_in) name it",
    () =>
      Effect.gen(function* () {
        const client = makeOAuth2Client(settings())
        answer = {
          status: 200,
          body: {
            access_token: "at",
            token_type: "bearer",
            expires_in: 60,
            refresh_token: "rt",
            refresh_token_expires_in: 31_536_000
          }
        }
        assert.strictEqual((yield* client.refresh("rt")).refreshExpiresInSeconds, 31_536_000)
        answer = {
          status: 200,
          body: {
            access_token: "at",
            token_type: "Bearer",
            expires_in: 60,
            refresh_token: "rt",
            refresh_expires_in: 15_552_000
          }
        }
        assert.strictEqual((yield* client.refresh("rt")).refreshExpiresInSeconds, 15_552_000)
      })
  )

  it.effect(
    "a lenient token endpoint (LinkedIn): no token_type is bearer, and an id_token Herald does not use is not checked",
    () =>
      Effect.gen(function* () {
        // An id_token whose issuer and audience match nothing: checking it would refuse the answer.
        const idToken = `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from('{"iss":"https://elsewhere","aud":"x","sub":"s"}').toString("base64url")}.sig`
        answer = {
          status: 200,
          body: {
            access_token: "at",
            expires_in: 5_184_000,
            scope: "openid,profile,w_member_social",
            id_token: idToken
          }
        }
        const strict = makeOAuth2Client(settings({ pkce: false, clientAuthentication: "post" }))
        assert.strictEqual(
          (yield* Effect.flip(
            strict.exchangeCode({ params: { code: "c", state: "s" }, callbackUrl: "https://h/cb", verifier: null })
          ))._tag,
          "OAuthUnavailable"
        )
        const lenient = makeOAuth2Client(
          settings({ pkce: false, clientAuthentication: "post", lenientTokenResponse: true })
        )
        const tokens = yield* lenient.exchangeCode({
          params: { code: "c", state: "s" },
          callbackUrl: "https://h/cb",
          verifier: null
        })
        assert.deepStrictEqual(tokens, {
          accessToken: "at",
          refreshToken: null,
          expiresInSeconds: 5_184_000,
          refreshExpiresInSeconds: null,
          scope: "openid,profile,w_member_social"
        })
        // Refusals still read as refusals, also when they come with a 200.
        answer = {
          status: 400,
          body: { error: "invalid_grant", error_description: "The provided authorization grant is invalid" }
        }
        assert.deepInclude(yield* Effect.flip(lenient.refresh("rt")), { _tag: "OAuthRefused", error: "invalid_grant" })
        answer = {
          status: 200,
          body: { error: "invalid_grant", error_description: "Refresh token is invalid or expired.", log_id: "2026" }
        }
        assert.deepInclude(yield* Effect.flip(lenient.refresh("rt")), {
          _tag: "OAuthRefused",
          error: "invalid_grant",
          message: "invalid_grant: Refresh token is invalid or expired."
        })
        assert.strictEqual(
          (yield* Effect.flip(strict.refresh("rt")))._tag,
          "OAuthUnavailable",
          "without the option a 200 is not read as a refusal"
        )
      })
  )
})

describe("the shared rate gate", () => {
  it.effect("a closed key refuses until its reset; the later of two closes wins; other keys stay open", () =>
    Effect.gen(function* () {
      const gate = makeRateGate()
      yield* gate.closeUntil("u1:tweets", 60_000)
      yield* gate.closeUntil("u1:tweets", 30_000)
      assert.strictEqual(yield* gate.waitFor(["u1:tweets", "u1:media"]), 60_000)
      assert.strictEqual(yield* gate.waitFor(["u2:tweets"]), 0)
      yield* gate.closeUntil("app:day", 90_000)
      assert.strictEqual(yield* gate.waitFor(["u1:tweets", "app:day"]), 90_000)
      yield* TestClock.adjust(60_000)
      assert.strictEqual(yield* gate.waitFor(["u1:tweets"]), 0)
      assert.strictEqual(yield* gate.waitFor(["app:day"]), 30_000)
    })
  )
})
