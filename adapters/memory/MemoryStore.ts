import { Context, Effect, Layer } from "effect"
import { Store, type StoreShape } from "../../application/ports/Store.ts"
import { MemoryState } from "./MemoryState.ts"

/** Whether the running fiber is already inside a transaction (a nested one joins it, like SQL's). */
const InTransaction = Context.Reference<boolean>("herald/memory/InTransaction", { defaultValue: () => false })

/** One transaction at a time; a failure undoes the changes it made. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  return {
    transaction: (effect) =>
      Effect.flatMap(InTransaction, (inside) =>
        inside
          ? effect
          : state.lock.withPermit(
            Effect.suspend(() => {
              state.begin()
              return Effect.onExit(effect, (exit) => Effect.sync(() => {
                if (exit._tag === "Failure") state.rollback()
                else state.commit()
              }))
            })
          ).pipe(Effect.provideService(InTransaction, true)))
  } satisfies StoreShape
})

export const layer = Layer.effect(Store)(make)
