import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { config } from "../../../adapters/networks/x/config.ts"

const read = (env: Record<string, string>) =>
  Effect.provide(
    Effect.gen(function* () {
      return yield* config
    }),
    ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))
  )

describe("X's configuration", () => {
  it.effect("X is offered only when both the client id and secret are set (blank is unset)", () =>
    Effect.gen(function* () {
      assert.isTrue(Option.isNone(yield* read({})))
      assert.isTrue(Option.isNone(yield* read({ X_CLIENT_ID: "id" })))
      assert.isTrue(Option.isNone(yield* read({ X_CLIENT_ID: "id", X_CLIENT_SECRET: "  " })))
    })
  )

  it.effect(
    "defaults to X's hosts; every host can be overridden, trailing slashes dropped; uploads go to the API host unless X_UPLOAD_URL says",
    () =>
      Effect.gen(function* () {
        const defaults = Option.getOrThrow(yield* read({ X_CLIENT_ID: "id", X_CLIENT_SECRET: "secret" }))
        assert.deepStrictEqual(
          { ...defaults, clientSecret: Redacted.value(defaults.clientSecret) },
          {
            clientId: "id",
            clientSecret: "secret",
            authorizeUrl: "https://x.com/i/oauth2/authorize",
            tokenUrl: "https://api.x.com/2/oauth2/token",
            apiUrl: "https://api.x.com",
            uploadUrl: "https://api.x.com"
          }
        )
        const proxied = Option.getOrThrow(
          yield* read({
            X_CLIENT_ID: "id",
            X_CLIENT_SECRET: "secret",
            X_AUTHORIZE_URL: "http://p/auth",
            X_TOKEN_URL: "http://p/token",
            X_API_URL: "http://p/api/",
            X_UPLOAD_URL: "http://u/"
          })
        )
        assert.deepInclude(proxied, {
          authorizeUrl: "http://p/auth",
          tokenUrl: "http://p/token",
          apiUrl: "http://p/api",
          uploadUrl: "http://u"
        })
        assert.strictEqual(
          Option.getOrThrow(yield* read({ X_CLIENT_ID: "id", X_CLIENT_SECRET: "s", X_API_URL: "http://p" })).uploadUrl,
          "http://p"
        )
      })
  )
})
