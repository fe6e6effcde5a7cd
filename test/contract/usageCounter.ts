import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { layerOptions, seedWorkspace, type SuiteOptions } from "./fixtures.ts"

export const usageCounterContract = (
  name: string,
  ports: Layer.Layer<UsageCounter | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`UsageCounter contract (${name})`, (it) => {
    it.effect("counts posts per workspace and per month", () =>
      Effect.gen(function* () {
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 0)
        assert.strictEqual(yield* usage.increment(ws.id, "2026-01"), 1)
        assert.strictEqual(yield* usage.increment(ws.id, "2026-01"), 2)
        assert.strictEqual(yield* usage.increment(ws.id, "2026-01"), 3)
        assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 3)
        assert.strictEqual(yield* usage.increment(ws.id, "2026-02"), 1)
        assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 3)
        assert.strictEqual(yield* usage.current(other.id, "2026-01"), 0)
        assert.strictEqual(yield* usage.increment(other.id, "2026-01"), 1)
      })
    )

    it.effect("concurrent increments are never lost", () =>
      Effect.gen(function* () {
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        const counts = yield* Effect.forEach(Array.from({ length: 50 }), () => usage.increment(ws.id, "2026-03"), {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual(
          [...counts].sort((a, b) => a - b),
          Array.from({ length: 50 }, (_, i) => i + 1)
        )
        assert.strictEqual(yield* usage.current(ws.id, "2026-03"), 50)
      })
    )
  })
