import { Effect, Layer, Option } from "effect"
import { IdempotencyStore, type IdempotencyStoreShape } from "../../application/ports/IdempotencyStore.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  return {
    claim: (record, now) =>
      state.sync(() => {
        const table = state.tables.idempotency
        const id = `${record.scope}\u0000${record.key}`
        const existing = table.get(id)
        if (existing && existing.expiresAt > now) return Option.some(existing)
        table.set(id, record)
        return Option.none()
      })
  } satisfies IdempotencyStoreShape
})

export const layer = Layer.effect(IdempotencyStore)(make)
