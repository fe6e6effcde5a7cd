import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { groupCommit } from "../../application/groupCommit.ts"

describe("group commit", () => {
  it.effect("a caller alone runs at once, in a batch of one", () =>
    Effect.gen(function* () {
      const batches: Array<ReadonlyArray<number>> = []
      const run = groupCommit((inputs: ReadonlyArray<number>) =>
        Effect.sync(() => {
          batches.push(inputs)
          return inputs.map((n) => Exit.succeed(n * 2))
        })
      )
      assert.strictEqual(yield* run(1), 2)
      assert.strictEqual(yield* run(2), 4)
      assert.deepStrictEqual(batches, [[1], [2]])
    })
  )

  it.effect("callers that arrive while a batch runs go together in the next one, each with its own outcome", () =>
    Effect.gen(function* () {
      const batches: Array<ReadonlyArray<number>> = []
      const gate = yield* Deferred.make<void>()
      const run = groupCommit((inputs: ReadonlyArray<number>) =>
        Effect.gen(function* () {
          batches.push(inputs)
          if (inputs[0] === 0) yield* Deferred.await(gate)
          return inputs.map((n) => (n === 3 ? Exit.fail(`no ${n}`) : Exit.succeed(n * 10)))
        })
      )
      const first = yield* Effect.forkChild(run(0))
      yield* Effect.yieldNow
      const others = yield* Effect.forkChild(
        Effect.all(
          [1, 2, 3, 4].map((n) => Effect.result(run(n))),
          { concurrency: "unbounded" }
        )
      )
      yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      assert.strictEqual(yield* Fiber.join(first), 0)
      const results = yield* Fiber.join(others)
      assert.deepStrictEqual(
        results.map((r) => (r._tag === "Success" ? r.success : r.failure)),
        [10, 20, "no 3", 40]
      )
      assert.deepStrictEqual(batches, [[0], [1, 2, 3, 4]])
    })
  )

  it.effect("a batch that fails as a whole fails each caller in it, and the next batch still runs", () =>
    Effect.gen(function* () {
      let calls = 0
      const run = groupCommit((inputs: ReadonlyArray<number>) =>
        Effect.suspend(() => {
          calls++
          return calls === 1 ? Effect.die("storage down") : Effect.succeed(inputs.map((n) => Exit.succeed(n)))
        })
      )
      const failed = yield* Effect.exit(run(1))
      assert.isTrue(Exit.isFailure(failed))
      assert.strictEqual(yield* run(2), 2)
    })
  )

  it.effect("a waiter interrupted before its turn does not stall the ones after it", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const batches: Array<ReadonlyArray<number>> = []
      const run = groupCommit((inputs: ReadonlyArray<number>) =>
        Effect.gen(function* () {
          batches.push(inputs)
          if (inputs[0] === 0) yield* Deferred.await(gate)
          return inputs.map((n) => Exit.succeed(n))
        })
      )
      const first = yield* Effect.forkChild(run(0))
      yield* Effect.yieldNow
      const gone = yield* Effect.forkChild(run(1))
      const stays = yield* Effect.forkChild(run(2))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(gone)
      yield* Deferred.succeed(gate, undefined)
      assert.strictEqual(yield* Fiber.join(first), 0)
      assert.strictEqual(yield* Fiber.join(stays), 2)
      assert.deepStrictEqual(batches, [[0], [2]])
      assert.strictEqual(yield* run(3), 3)
    })
  )
})
