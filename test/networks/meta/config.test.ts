import { assert, describe, it } from "@effect/vitest"
import { type Config, ConfigProvider, Effect, Option, Redacted } from "effect"
import { config as facebookConfig } from "../../../adapters/networks/facebook/config.ts"
import { config as instagramConfig } from "../../../adapters/networks/instagram/config.ts"
import { config as threadsConfig } from "../../../adapters/networks/threads/config.ts"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.provide(
    Effect.gen(function* () {
      return yield* config
    }),
    ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))
  )
const plain = <A extends { clientSecret: Redacted.Redacted<string> }>(c: A) => ({
  ...c,
  clientSecret: Redacted.value(c.clientSecret)
})

describe("the Meta networks' configuration", () => {
  it.effect(
    "each is offered only with both its client id and secret (blank is unset); Instagram also with Facebook's",
    () =>
      Effect.gen(function* () {
        assert.isTrue(Option.isNone(yield* read(facebookConfig, {})))
        assert.isTrue(
          Option.isNone(yield* read(facebookConfig, { FACEBOOK_CLIENT_ID: "1", FACEBOOK_CLIENT_SECRET: " " }))
        )
        assert.isTrue(Option.isNone(yield* read(threadsConfig, { THREADS_CLIENT_ID: "3" })))
        const ig = yield* read(instagramConfig, { FACEBOOK_CLIENT_ID: "1", FACEBOOK_CLIENT_SECRET: "s" })
        assert.isTrue(Option.isNone(ig.instagram) && Option.isSome(ig.facebook))
      })
  )

  it.effect(
    "Meta's hosts by default, the Graph version from META_GRAPH_VERSION in one place (v26.0 unless set), Threads on v1.0",
    () =>
      Effect.gen(function* () {
        const env = {
          FACEBOOK_CLIENT_ID: "1",
          FACEBOOK_CLIENT_SECRET: "fs",
          INSTAGRAM_CLIENT_ID: "2",
          INSTAGRAM_CLIENT_SECRET: "is",
          THREADS_CLIENT_ID: "3",
          THREADS_CLIENT_SECRET: "ts"
        }
        assert.deepStrictEqual(plain(Option.getOrThrow(yield* read(facebookConfig, env))), {
          clientId: "1",
          clientSecret: "fs",
          authorizeUrl: "https://www.facebook.com/v26.0/dialog/oauth",
          tokenUrl: "https://graph.facebook.com/v26.0/oauth/access_token",
          apiUrl: "https://graph.facebook.com",
          version: "v26.0"
        })
        const both = yield* read(instagramConfig, { ...env, META_GRAPH_VERSION: "27" })
        assert.deepStrictEqual(plain(Option.getOrThrow(both.instagram)), {
          clientId: "2",
          clientSecret: "is",
          authorizeUrl: "https://www.instagram.com/oauth/authorize",
          tokenUrl: "https://api.instagram.com/oauth/access_token",
          apiUrl: "https://graph.instagram.com",
          version: "v27.0"
        })
        assert.strictEqual(Option.getOrThrow(both.facebook).authorizeUrl, "https://www.facebook.com/v27.0/dialog/oauth")
        assert.deepStrictEqual(
          plain(Option.getOrThrow(yield* read(threadsConfig, { ...env, META_GRAPH_VERSION: "v27.0" }))),
          {
            clientId: "3",
            clientSecret: "ts",
            authorizeUrl: "https://threads.net/oauth/authorize",
            tokenUrl: "https://graph.threads.net/oauth/access_token",
            apiUrl: "https://graph.threads.net",
            version: "v1.0"
          }
        )
      })
  )

  it.effect("every host can be overridden, trailing slashes dropped from the API host", () =>
    Effect.gen(function* () {
      const c = Option.getOrThrow(
        yield* read(threadsConfig, {
          THREADS_CLIENT_ID: "3",
          THREADS_CLIENT_SECRET: "ts",
          THREADS_AUTHORIZE_URL: "http://p/auth",
          THREADS_TOKEN_URL: "http://p/token",
          THREADS_API_URL: "http://p/api//"
        })
      )
      assert.deepInclude(c, { authorizeUrl: "http://p/auth", tokenUrl: "http://p/token", apiUrl: "http://p/api" })
    })
  )
})
