import { Context, Effect, Layer, Option } from "effect"
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
  Layer.effectContext(Effect.map(Effect.all(networks as ReadonlyArray<Effect.Effect<Option.Option<Network>, Effect.Error<Networks[number]>, Effect.Services<Networks[number]>>>), (found) => {
    const enabled = found.flatMap((n) => (Option.isSome(n) ? [n.value] : []))
    return Context.make(Connectors, connectorsOf(enabled.map((n) => n.connector))).pipe(Context.add(Publishers, publishersOf(enabled.map((n) => n.publisher))))
  }))
