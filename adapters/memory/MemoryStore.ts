import { Effect, Layer } from "effect"
import { Store, type StoreShape } from "../../application/ports/Store.ts"
import { MemoryState } from "./MemoryState.ts"

/** One transaction at a time; a failure undoes the changes it made, and only those (MemoryState). */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  return { transaction: state.transaction } satisfies StoreShape
})

export const layer = Layer.effect(Store)(make)
