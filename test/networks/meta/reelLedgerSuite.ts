import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { ReelLedger } from "../../../adapters/networks/facebook/reelLedger.ts"
import { makeReelQuota } from "../../../adapters/networks/facebook/reelQuota.ts"

const DAY = 86_400_000
const T0 = Date.UTC(2026, 10, 24, 12)

/**
 * The reels ledger's contract, for every adapter of it. `ledgers` gives two ledgers on one store:
 * two processes of one deployment (for the memory adapter, the same one twice).
 */
export const reelLedgerSuite = (
  name: string,
  ledgers: () => Layer.Layer<ReelLedger>,
  second: () => Layer.Layer<ReelLedger>
) =>
  describe(`reels ledger (${name})`, () => {
    it.effect("counts a reel once per video id, per Page, within the 24 hours before the moment asked", () =>
      Effect.gen(function* () {
        const ledger = yield* ReelLedger
        const page = `page_${name}_once`
        yield* ledger.record(page, "v1", T0)
        yield* ledger.record(page, "v1", T0 + 1_000) // seen finished again: still one reel, at its first time
        yield* ledger.record(page, "v2", T0 + 60_000)
        yield* ledger.record(`${page}_other`, "v3", T0)
        assert.deepStrictEqual(yield* ledger.within(page, T0 + 60_000), [T0, T0 + 60_000])
        assert.deepStrictEqual(
          yield* ledger.within(page, T0 + 30_000),
          [T0],
          "a reel after the moment asked is not counted"
        )
        assert.deepStrictEqual(
          yield* ledger.within(page, T0 + DAY),
          [T0 + 60_000],
          "24 hours on, the first no longer counts"
        )
        assert.deepStrictEqual(yield* ledger.within(page, T0 + DAY + 60_000), [])
      }).pipe(Effect.provide(ledgers()))
    )

    it.effect(
      "the 31st reel of a Page waits for the first to leave the 24 hours, whichever process published the 30",
      () =>
        Effect.gen(function* () {
          const page = `page_${name}_cap`
          const first = makeReelQuota(yield* ReelLedger)
          const other = makeReelQuota(
            yield* Effect.provide(
              Effect.gen(function* () {
                return yield* ReelLedger
              }),
              second()
            )
          )
          for (let i = 0; i < 30; i++) yield* (i % 2 === 0 ? first : other).record(page, `v${i}`, T0 + i * 1_000)
          assert.strictEqual(yield* other.used(page, T0 + 60_000), 30)
          assert.strictEqual(
            yield* other.freeAt(page, T0 + 60_000),
            T0 + DAY,
            "the other process sees the Page full until the first reel is 24 hours old"
          )
          yield* first.record(page, "v30", T0 + DAY) // the slot the first reel left, taken at once
          assert.strictEqual(
            yield* first.freeAt(page, T0 + DAY + 500),
            T0 + DAY + 1_000,
            "full again: the next slot opens as the second reel leaves"
          )
          assert.strictEqual(yield* other.freeAt(page, T0 + DAY + 1_000), T0 + DAY + 1_000)
        }).pipe(Effect.provide(ledgers()))
    )
  })
