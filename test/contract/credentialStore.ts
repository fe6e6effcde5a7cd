import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { CredentialStore } from "../../application/ports/CredentialStore.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { account, layerOptions, seedWorkspace, type SuiteOptions } from "./fixtures.ts"

const seedAccount = Effect.gen(function* () {
  const ws = yield* seedWorkspace()
  return yield* (yield* AccountRepo).upsert(account(ws.id))
})

export const credentialStoreContract = (
  name: string,
  ports: Layer.Layer<CredentialStore | AccountRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`CredentialStore contract (${name})`, (it) => {
    it.effect("stores an account's sealed credentials; each write is a new version", () =>
      Effect.gen(function* () {
        const store = yield* CredentialStore
        const acc = yield* seedAccount
        assert.isTrue(Option.isNone(yield* store.get(acc.id)))
        yield* store.put(acc.id, { sealed: "v1.a", expiresAt: 1_000 })
        const first = Option.getOrThrow(yield* store.get(acc.id))
        assert.deepStrictEqual(
          { sealed: first.sealed, expiresAt: first.expiresAt },
          { sealed: "v1.a", expiresAt: 1_000 }
        )
        yield* store.put(acc.id, { sealed: "v1.b", expiresAt: null })
        const second = Option.getOrThrow(yield* store.get(acc.id))
        assert.deepStrictEqual(
          { sealed: second.sealed, expiresAt: second.expiresAt },
          { sealed: "v1.b", expiresAt: null }
        )
        assert.isTrue(second.version > first.version)
      })
    )

    it.effect(
      "renew runs on the version it was given and stores the result; from an older version it returns the newer one untouched",
      () =>
        Effect.gen(function* () {
          const store = yield* CredentialStore
          const acc = yield* seedAccount
          yield* store.put(acc.id, { sealed: "old", expiresAt: 1 })
          const seen = Option.getOrThrow(yield* store.get(acc.id)).version
          const renewed = yield* store.renew(acc.id, seen, (current) =>
            Effect.succeed({ sealed: `${current.sealed}+1`, expiresAt: 2 })
          )
          assert.deepStrictEqual(
            { sealed: renewed.sealed, expiresAt: renewed.expiresAt },
            { sealed: "old+1", expiresAt: 2 }
          )
          assert.deepStrictEqual(Option.getOrThrow(yield* store.get(acc.id)), renewed)
          let called = false
          const stale = yield* store.renew(acc.id, seen, () =>
            Effect.sync(() => (called = true)).pipe(Effect.as({ sealed: "never", expiresAt: 3 }))
          )
          assert.isFalse(called)
          assert.deepStrictEqual(stale, renewed)
        })
    )

    it.effect("concurrent renewals from one version renew once; everyone gets the newest credentials", () =>
      Effect.gen(function* () {
        const store = yield* CredentialStore
        const acc = yield* seedAccount
        yield* store.put(acc.id, { sealed: "refresh-1", expiresAt: 1 })
        const seen = Option.getOrThrow(yield* store.get(acc.id)).version
        let calls = 0
        const results = yield* Effect.forEach(
          Array.from({ length: 8 }),
          () =>
            store.renew(acc.id, seen, (current) =>
              Effect.sync(() => ++calls).pipe(
                Effect.andThen(Effect.sleep(20)),
                Effect.as({ sealed: `${current.sealed}>rotated`, expiresAt: 2 })
              )
            ),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(calls, 1)
        assert.deepStrictEqual(new Set(results.map((r) => r.sealed)), new Set(["refresh-1>rotated"]))
        assert.strictEqual(Option.getOrThrow(yield* store.get(acc.id)).sealed, "refresh-1>rotated")
      })
    )

    it.effect(
      "keeps each grant's lifetime in clear and reads several at once; credentials stored without one say so (null)",
      () =>
        Effect.gen(function* () {
          const store = yield* CredentialStore
          const [a, b, none, legacy] = [yield* seedAccount, yield* seedAccount, yield* seedAccount, yield* seedAccount]
          yield* store.put(a.id, {
            sealed: "a",
            expiresAt: 1_000,
            refreshable: true,
            refreshExpiresAt: 9_000_000_000_000
          })
          yield* store.put(b.id, { sealed: "b", expiresAt: 2_000, refreshable: false, refreshExpiresAt: null })
          yield* store.put(legacy.id, { sealed: "old", expiresAt: 3_000 })
          const lifetimes = yield* store.lifetimes([a.id, b.id, none.id, legacy.id])
          assert.strictEqual(lifetimes.size, 3)
          assert.deepStrictEqual(lifetimes.get(a.id), {
            expiresAt: 1_000,
            refreshable: true,
            refreshExpiresAt: 9_000_000_000_000
          })
          assert.deepStrictEqual(lifetimes.get(b.id), { expiresAt: 2_000, refreshable: false, refreshExpiresAt: null })
          assert.deepStrictEqual(lifetimes.get(legacy.id), {
            expiresAt: 3_000,
            refreshable: null,
            refreshExpiresAt: null
          })
          assert.deepStrictEqual(yield* store.lifetimes([]), new Map())
          // A renewal stores the lifetime it brings.
          const seen = Option.getOrThrow(yield* store.get(legacy.id)).version
          yield* store.renew(legacy.id, seen, () =>
            Effect.succeed({ sealed: "new", expiresAt: 4_000, refreshable: true, refreshExpiresAt: null })
          )
          assert.deepStrictEqual((yield* store.lifetimes([legacy.id])).get(legacy.id), {
            expiresAt: 4_000,
            refreshable: true,
            refreshExpiresAt: null
          })
          assert.include(Option.getOrThrow(yield* store.get(legacy.id)), { sealed: "new", refreshable: true })
        })
    )

    it.effect("a failed renewal stores nothing", () =>
      Effect.gen(function* () {
        const store = yield* CredentialStore
        const acc = yield* seedAccount
        yield* store.put(acc.id, { sealed: "keep", expiresAt: 1 })
        const before = Option.getOrThrow(yield* store.get(acc.id))
        const exit = yield* Effect.exit(store.renew(acc.id, before.version, () => Effect.fail("invalid_grant")))
        assert.deepStrictEqual(exit, Exit.fail("invalid_grant"))
        assert.deepStrictEqual(Option.getOrThrow(yield* store.get(acc.id)), before)
      })
    )

    it.effect("credentials go with their account", () =>
      Effect.gen(function* () {
        const store = yield* CredentialStore
        const acc = yield* seedAccount
        yield* store.put(acc.id, { sealed: "gone soon", expiresAt: null })
        assert.isTrue(yield* (yield* AccountRepo).delete(acc.workspaceId, acc.id))
        assert.isTrue(Option.isNone(yield* store.get(acc.id)))
      })
    )
  })
