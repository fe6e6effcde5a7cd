import { createHash } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"
import { authorize, CALLBACK, connect, setNow, T0, youTubeOn } from "./support.ts"

let fake: FakeYouTube
beforeAll(async () => void (fake = await startFakeYouTube()))
afterAll(() => fake.close())

describe("YouTube connector against the fake Google", () => {
  it.effect(
    "connects the channel with PKCE, offline access and client_secret_post; an hour's token and a refresh token",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* youTubeOn(fake)
        const begun = yield* network.connector.begin({ state: "st-1", callbackUrl: CALLBACK, formUrl: "" })
        const query = Object.fromEntries(new URL(begun.url).searchParams)
        assert.deepStrictEqual(query, {
          response_type: "code",
          client_id: fake.clientId,
          redirect_uri: CALLBACK,
          state: "st-1",
          scope: "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.force-ssl",
          code_challenge: createHash("sha256").update(begun.verifier!).digest("base64url"),
          code_challenge_method: "S256",
          access_type: "offline",
          prompt: "consent",
          include_granted_scopes: "true"
        })
        const params = yield* authorize(begun.url)
        const [connection] = yield* network.connector.complete({
          params,
          callbackUrl: CALLBACK,
          verifier: begun.verifier
        })
        assert.deepStrictEqual(connection.profile, {
          externalId: "UCalice0000000000000000a",
          name: "Alice Makes Things",
          username: "@alicemakes",
          avatarUrl: "https://yt3.ggpht.com/alice=s88"
        })
        assert.strictEqual(connection.credentials?.expiresAt, T0 + 3599 * 1000)
        assert.match(connection.credentials?.refreshToken ?? "", /^1\/\//)
        assert.deepInclude(fake.calls("POST", "/token").at(-1)!.body as object, {
          grant_type: "authorization_code",
          client_secret: fake.clientSecret,
          code_verifier: begun.verifier
        })
      })
  )

  it.effect("a Google account without a YouTube channel is refused with a clear message", () =>
    Effect.gen(function* () {
      const { network } = yield* youTubeOn(fake)
      const error = yield* Effect.flip(connect(fake, network, "g-nochannel"))
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "has no YouTube channel")
    })
  )

  it.effect(
    "refresh keeps Google's refresh token (no rotation); invalid_grant is GrantRevoked with Google's words",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* youTubeOn(fake)
        const { credentials } = yield* connect(fake, network)
        const renewed = yield* network.connector.refresh!(credentials!)
        assert.notStrictEqual(renewed.accessToken, credentials!.accessToken)
        assert.isNull(renewed.refreshToken, "Google sends none: Herald keeps the stored one (credentials.ts)")
        fake.revoke("g-alice")
        const refused = yield* Effect.flip(network.connector.refresh!(credentials!))
        assert.strictEqual(refused._tag, "GrantRevoked")
        assert.include(refused.message, "Token has been expired or revoked.")
      })
  )
})
