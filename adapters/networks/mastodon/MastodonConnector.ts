import { Clock, Effect, Option, Schema } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { Answer, MastodonApi } from "./api.ts"
import type { AppRegistry, RegisteredApp } from "./apps.ts"
import { scopes } from "./config.ts"
import { connectError } from "./errors.ts"
import { guardInstance, type Instance, InstanceRefused, loopbackAllowed, parseInstance } from "./instance.ts"

/** What the connect link keeps until the callback (in the state's verifier slot): the instance it went to. */
const Remembered = Schema.fromJsonString(Schema.Struct({ instance: Schema.String }))
const encodeRemembered = Schema.encodeSync(Remembered)
const decodeRemembered = Schema.decodeUnknownOption(Remembered)

const ok = <A>(answer: Answer<A>, step: string): Effect.Effect<A, HeraldError> =>
  answer._tag === "Ok" ? Effect.succeed(answer.value) : Effect.fail(connectError(answer.reply, step))

/**
 * Connects accounts on any instance a person names: Herald registers itself there (POST
 * /api/v1/apps, once per instance and callback, kept), then sends the person to the instance's
 * authorize page; the callback exchanges the code for a token that does not expire. The instance
 * rides with the connect link's state, so the one callback URL serves every instance.
 */
export const make = (deps: {
  readonly api: MastodonApi
  readonly apps: AppRegistry
  readonly clientName: string
  readonly website: string | null
}): Connector => {
  const instanceOf = (input: string) =>
    Effect.gen(function* () {
      const parsed = parseInstance(input, yield* loopbackAllowed)
      if (parsed instanceof InstanceRefused) return yield* parsed
      yield* guardInstance(parsed)
      return parsed
    })

  const registered = (instance: Instance, redirectUri: string) =>
    Effect.gen(function* () {
      const known = yield* deps.apps.find(instance.origin, redirectUri)
      if (Option.isSome(known)) return known.value
      const app = yield* ok(
        yield* deps.api.registerApp(instance.origin, {
          name: deps.clientName,
          redirectUri,
          scopes,
          website: deps.website
        }),
        "to register Herald as an app"
      )
      return yield* deps.apps.keep({
        origin: instance.origin,
        redirectUri,
        clientId: app.client_id,
        clientSecret: app.client_secret,
        scopes,
        createdAt: yield* Clock.currentTimeMillis
      } satisfies RegisteredApp)
    })

  return {
    platform: "mastodon",
    begin: ({ state, callbackUrl, formUrl, params }) =>
      Effect.gen(function* () {
        const named = params?.instance ?? ""
        // No instance named: Herald's own page asks the person for it, then begins again with it.
        if (named.trim() === "") return { url: `${formUrl}?state=${encodeURIComponent(state)}`, verifier: null }
        const instance = yield* instanceOf(named)
        const app = yield* registered(instance, callbackUrl)
        const url = new URL(`${instance.origin}/oauth/authorize`)
        url.search = new URLSearchParams({
          response_type: "code",
          client_id: app.clientId,
          redirect_uri: callbackUrl,
          scope: app.scopes,
          state
        }).toString()
        return { url: url.toString(), verifier: encodeRemembered({ instance: instance.origin }) }
      }).pipe(Effect.mapError((e) => (e._tag === "HeraldError" ? e : connectError(e, "Herald's registration")))),
    complete: ({ params, callbackUrl, verifier }) =>
      Effect.gen(function* () {
        const remembered = decodeRemembered(verifier)
        if (Option.isNone(remembered))
          return yield* fail(
            "validation_failed",
            { fields: ["state"] },
            "This connect link names no Mastodon instance."
          )
        if (params.error !== undefined)
          return yield* fail(
            "upstream_rejected",
            { platform: "mastodon", reason: params.error },
            `The instance did not grant access: ${params.error_description ?? params.error}`
          )
        const code = params.code ?? ""
        if (code === "") return yield* fail("validation_failed", { fields: ["code"] }, "The instance sent no code.")
        const instance = yield* instanceOf(remembered.value.instance)
        const app = yield* deps.apps.find(instance.origin, callbackUrl)
        if (Option.isNone(app))
          return yield* fail(
            "validation_failed",
            { fields: ["state"] },
            "Herald has no registration on this instance for this callback; ask for a new connect link."
          )
        const token = yield* ok(
          yield* deps.api.exchangeCode(instance.origin, {
            clientId: app.value.clientId,
            clientSecret: app.value.clientSecret,
            code,
            redirectUri: callbackUrl,
            scopes: app.value.scopes
          }),
          "the authorization code"
        )
        const me = yield* ok(yield* deps.api.me(instance.origin, token.access_token), "to give the account's profile")
        return [
          {
            profile: {
              externalId: `${me.id}@${instance.host}`,
              name: me.display_name?.trim() || me.username,
              username: `${me.username}@${instance.host}`,
              avatarUrl: me.avatar ?? null
            },
            credentials: {
              accessToken: token.access_token,
              // Mastodon's tokens do not expire: they last until the person or the instance revokes them.
              refreshToken: null,
              expiresAt: null,
              extra: { instance: instance.origin, accountId: me.id }
            }
          }
        ]
      }).pipe(Effect.mapError((e) => (e._tag === "HeraldError" ? e : connectError(e, "to finish the connection"))))
  }
}
