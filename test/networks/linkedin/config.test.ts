import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { config } from "../../../adapters/networks/linkedin/config.ts"

const read = (env: Record<string, string>) =>
  Effect.provide(
    Effect.gen(function* () {
      return yield* config
    }),
    ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))
  )

describe("LinkedIn's configuration", () => {
  it.effect("offered only when both the client id and secret are set (blank is unset)", () =>
    Effect.gen(function* () {
      assert.isTrue(Option.isNone(yield* read({})))
      assert.isTrue(Option.isNone(yield* read({ LINKEDIN_CLIENT_ID: "id" })))
      assert.isTrue(Option.isNone(yield* read({ LINKEDIN_CLIENT_ID: " ", LINKEDIN_CLIENT_SECRET: "s" })))
    })
  )

  it.effect("LinkedIn's hosts, the API version in one setting and pages on by default; each overridable", () =>
    Effect.gen(function* () {
      const defaults = Option.getOrThrow(yield* read({ LINKEDIN_CLIENT_ID: "id", LINKEDIN_CLIENT_SECRET: "secret" }))
      assert.deepStrictEqual(
        { ...defaults, clientSecret: Redacted.value(defaults.clientSecret) },
        {
          clientId: "id",
          clientSecret: "secret",
          authorizeUrl: "https://www.linkedin.com/oauth/v2/authorization",
          tokenUrl: "https://www.linkedin.com/oauth/v2/accessToken",
          apiUrl: "https://api.linkedin.com",
          version: "202607",
          organizations: true
        }
      )
      const set = Option.getOrThrow(
        yield* read({
          LINKEDIN_CLIENT_ID: "id",
          LINKEDIN_CLIENT_SECRET: "secret",
          LINKEDIN_AUTHORIZE_URL: "http://p/auth",
          LINKEDIN_TOKEN_URL: "http://p/token",
          LINKEDIN_API_URL: "http://p/api//",
          LINKEDIN_VERSION: "202611",
          LINKEDIN_ORGANIZATIONS: "false"
        })
      )
      assert.deepInclude(set, {
        authorizeUrl: "http://p/auth",
        tokenUrl: "http://p/token",
        apiUrl: "http://p/api",
        version: "202611",
        organizations: false
      })
    })
  )
})
