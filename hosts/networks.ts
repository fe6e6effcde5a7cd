import { type Config, Context, Effect, Layer, Option } from "effect"
import { BlobStore, type BlobStoreShape } from "../application/ports/BlobStore.ts"
import { Connectors } from "../application/ports/Connectors.ts"
import { connectorsOf, type Network, publishersOf } from "../application/ports/Network.ts"
import { Publishers } from "../application/ports/Publishers.ts"

/**
 * The Connectors and Publishers registries over the networks a host enables. Each entry is one
 * network folder's `network`: none when its configuration leaves it off. Adding a network is its
 * folder plus one line in the host's list (each may need its own services: the list is a tuple).
 */
export const networksLayer = <const Networks extends ReadonlyArray<Effect.Effect<Option.Option<Network>, any, any>>>(
  networks: Networks
): Layer.Layer<Connectors | Publishers, Effect.Error<Networks[number]>, Effect.Services<Networks[number]>> =>
  Layer.effectContext(
    Effect.map(
      Effect.all(
        networks as ReadonlyArray<
          Effect.Effect<Option.Option<Network>, Effect.Error<Networks[number]>, Effect.Services<Networks[number]>>
        >
      ),
      (found) => {
        const enabled = found.flatMap((n) => (Option.isSome(n) ? [n.value] : []))
        return Context.make(Connectors, connectorsOf(enabled.map((n) => n.connector))).pipe(
          Context.add(Publishers, publishersOf(enabled.map((n) => n.publisher)))
        )
      }
    )
  )

/**
 * A network whose adapter is loaded only when its configuration turns it on: reading the settings
 * needs only the folder's config.ts, so a host pays the start-up cost (its modules, their libraries)
 * of the networks it offers, not of every network Herald knows.
 */
export const lazyNetwork = <Settings>(
  settings: Effect.Effect<Option.Option<Settings>, Config.ConfigError>,
  load: () => Promise<{ readonly make: (settings: Settings, blobs: BlobStoreShape) => Network }>
) =>
  Effect.gen(function* () {
    const found = yield* settings
    if (Option.isNone(found)) return Option.none<Network>()
    const adapter = yield* Effect.promise(load)
    return Option.some(adapter.make(found.value, yield* BlobStore))
  })
