import { Context, Effect, Layer, Option } from "effect"
import { Connectors } from "../application/ports/Connectors.ts"
import { connectorsOf, type Network, publishersOf } from "../application/ports/Network.ts"
import { PublishError, Publishers } from "../application/ports/Publishers.ts"
import * as Bluesky from "../adapters/networks/bluesky/index.ts"
import * as Discord from "../adapters/networks/discord/index.ts"
import * as Facebook from "../adapters/networks/facebook/index.ts"
import * as GoogleBusiness from "../adapters/networks/google-business/index.ts"
import * as Instagram from "../adapters/networks/instagram/index.ts"
import * as LinkedIn from "../adapters/networks/linkedin/index.ts"
import * as Mastodon from "../adapters/networks/mastodon/index.ts"
import * as Pinterest from "../adapters/networks/pinterest/index.ts"
import * as Reddit from "../adapters/networks/reddit/index.ts"
import * as Sandbox from "../adapters/networks/sandbox/index.ts"
import type { NetworkDeclaration } from "../adapters/networks/shared/declaration.ts"
import * as Telegram from "../adapters/networks/telegram/index.ts"
import * as Threads from "../adapters/networks/threads/index.ts"
import * as TikTok from "../adapters/networks/tiktok/index.ts"
import * as X from "../adapters/networks/x/index.ts"
import * as YouTube from "../adapters/networks/youtube/index.ts"

/**
 * Every network Herald knows, in display order: adding one is its folder plus one line here. Every
 * host builds its registries from this list; `npm run networks` derives the domain's names and rules
 * and the README's list from it.
 */
export const networks = [
  X.network,
  LinkedIn.network,
  Instagram.network,
  Facebook.network,
  Threads.network,
  Bluesky.network,
  TikTok.network,
  YouTube.network,
  Pinterest.network,
  Mastodon.network,
  Telegram.network,
  Discord.network,
  GoogleBusiness.network,
  Reddit.network,
  Sandbox.network
] as const

/** The services the listed networks need from their host (blob storage, the sandbox's and reels' ledgers). */
export type NetworkServices = (typeof networks)[number] extends NetworkDeclaration<any, infer R> ? R : never

/** The networks' own tables, for the Postgres migrator. */
export const networkMigrations = Object.assign({}, ...networks.map((n) => n.migrations ?? {})) as NonNullable<
  NetworkDeclaration["migrations"]
>

/**
 * A declared network, if its settings turn it on. Its adapter module loads on the first call that
 * needs it (connect, refresh, publish), once, so a host pays the start-up cost only of the networks
 * it uses: until then the declaration answers for it.
 */
export const enable = <Settings, R>(declaration: NetworkDeclaration<Settings, R>) =>
  Effect.gen(function* () {
    const settings = yield* declaration.config
    if (Option.isNone(settings)) return Option.none<Network>()
    const services = yield* Effect.context<R>()
    const adapter = yield* Effect.cached(
      Effect.flatMap(Effect.promise(declaration.load), (module) =>
        Effect.provideContext(module.build(settings.value), services)
      )
    )
    const platform = declaration.platform
    return Option.some<Network>({
      platform,
      connector: {
        platform,
        begin: (input) => Effect.flatMap(adapter, (n) => n.connector.begin(input)),
        complete: (input) => Effect.flatMap(adapter, (n) => n.connector.complete(input)),
        refresh: declaration.renews
          ? (credentials) => Effect.flatMap(adapter, (n) => n.connector.refresh!(credentials))
          : undefined
      },
      publisher: {
        platform,
        prepare: (request) => Effect.flatMap(adapter, (n) => n.publisher.prepare(request)),
        publish: (request, handle) => Effect.flatMap(adapter, (n) => n.publisher.publish(request, handle)),
        recover: (request, handle) =>
          Effect.flatMap(adapter, (n) =>
            n.publisher.recover === undefined
              ? Effect.succeed({ _tag: "Unknown" as const })
              : n.publisher.recover(request, handle)
          ),
        advise: (account, dueAt, post) =>
          Effect.flatMap(adapter, (n) =>
            n.publisher.advise === undefined ? Effect.succeed([]) : n.publisher.advise(account, dueAt, post)
          ),
        metrics:
          declaration.metricsBatch === undefined
            ? undefined
            : {
                batch: declaration.metricsBatch,
                read: (request) =>
                  Effect.flatMap(adapter, (n) =>
                    n.publisher.metrics === undefined
                      ? Effect.succeed({
                          _tag: "NotOffered" as const,
                          reason: "Herald reads no figures from this network."
                        })
                      : n.publisher.metrics.read(request)
                  )
              },
        boards: declaration.boards
          ? (account, credentials) => Effect.flatMap(adapter, (n) => n.publisher.boards!(account, credentials))
          : undefined,
        unpublish: declaration.unpublishes
          ? (request) =>
              Effect.flatMap(adapter, (n) =>
                n.publisher.unpublish === undefined
                  ? Effect.fail(
                      PublishError.refused({
                        code: "unpublish_unsupported",
                        message: `The ${platform} adapter cannot remove posts.`
                      })
                    )
                  : n.publisher.unpublish(request)
              )
          : undefined
      }
    })
  })

/** The Connectors and Publishers registries over these networks (each none when its settings leave it off). */
export const networksLayer = <const Found extends ReadonlyArray<Effect.Effect<Option.Option<Network>, any, any>>>(
  found: Found
): Layer.Layer<Connectors | Publishers, Effect.Error<Found[number]>, Effect.Services<Found[number]>> =>
  Layer.effectContext(
    Effect.map(
      Effect.all(
        found as ReadonlyArray<
          Effect.Effect<Option.Option<Network>, Effect.Error<Found[number]>, Effect.Services<Found[number]>>
        >
      ),
      (all) => {
        const enabled = all.flatMap((n) => (Option.isSome(n) ? [n.value] : []))
        return Context.make(Connectors, connectorsOf(enabled.map((n) => n.connector))).pipe(
          Context.add(Publishers, publishersOf(enabled.map((n) => n.publisher)))
        )
      }
    )
  )

/** The registries over every listed network its settings turn on: what hosts provide. */
export const layer = networksLayer(networks.map((n) => enable(n as NetworkDeclaration<unknown, NetworkServices>)))
