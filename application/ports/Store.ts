import { Context, type Effect } from "effect"

export interface StoreShape {
  /** Runs the effect's repository writes atomically: all of them or none. */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export class Store extends Context.Service<Store, StoreShape>()("herald/Store") {}
