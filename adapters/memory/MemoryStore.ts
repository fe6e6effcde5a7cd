import { Effect, Layer } from "effect"
import { Store, type StoreShape } from "../../application/ports/Store.ts"
import { MemoryState } from "./MemoryState.ts"

/** One transaction at a time; a failure restores the snapshot taken at the start. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  return {
    transaction: (effect) =>
      state.lock.withPermit(
        Effect.suspend(() => {
          const before = state.snapshot()
          return Effect.onExit(effect, (exit) => Effect.sync(() => {
            if (exit._tag === "Failure") state.restore(before)
          }))
        })
      )
  } satisfies StoreShape
})

export const layer = Layer.effect(Store)(make)
