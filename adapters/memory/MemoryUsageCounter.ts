import { Effect, Layer } from "effect"
import { UsageCounter, type UsageCounterShape } from "../../application/ports/UsageCounter.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const id = (workspaceId: string, month: string) => `${workspaceId}\u0000${month}`
  return {
    increment: (workspaceId, month) =>
      state.sync(() => {
        const next = (state.tables.usage.get(id(workspaceId, month)) ?? 0) + 1
        state.tables.usage.set(id(workspaceId, month), next)
        return next
      }),
    current: (workspaceId, month) => state.sync(() => state.tables.usage.get(id(workspaceId, month)) ?? 0)
  } satisfies UsageCounterShape
})

export const layer = Layer.effect(UsageCounter)(make)
