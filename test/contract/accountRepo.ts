import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { account, layerOptions, seedWorkspace, sorted, type SuiteOptions, T0 } from "./fixtures.ts"

export const accountRepoContract = (
  name: string,
  ports: Layer.Layer<AccountRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`AccountRepo contract (${name})`, (it) => {
    it.effect("inserts a new account and finds it within its workspace only", () =>
      Effect.gen(function* () {
        const repo = yield* AccountRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const acc = account(ws.id, { avatarUrl: "https://cdn.example/avatar.png" })
        assert.deepStrictEqual(yield* repo.upsert(acc), acc)
        assert.deepStrictEqual(yield* repo.findById(ws.id, acc.id), Option.some(acc))
        assert.isTrue(Option.isNone(yield* repo.findById(other.id, acc.id)))
      })
    )

    it.effect("a reconnection (same workspace, platform and externalId) replaces the account and keeps its id", () =>
      Effect.gen(function* () {
        const repo = yield* AccountRepo
        const ws = yield* seedWorkspace()
        const first = yield* repo.upsert(account(ws.id, { status: "needs_reconnection" }))
        const again = account(ws.id, {
          externalId: first.externalId,
          name: "Acme (new name)",
          username: "acme.example",
          avatarUrl: "https://cdn.example/new.png",
          status: "connected",
          connectedAt: T0 + 1000
        })
        const stored = yield* repo.upsert(again)
        assert.deepStrictEqual(stored, { ...again, id: first.id })
        assert.deepStrictEqual(yield* repo.listByWorkspace(ws.id), [stored])
        assert.isTrue(Option.isNone(yield* repo.findById(ws.id, again.id)))
      })
    )

    it.effect("the same externalId on another platform or in another workspace is another account", () =>
      Effect.gen(function* () {
        const repo = yield* AccountRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const a = yield* repo.upsert(account(ws.id, { externalId: "123" }))
        const b = yield* repo.upsert(account(ws.id, { externalId: "123", platform: "x" }))
        const c = yield* repo.upsert(account(other.id, { externalId: "123" }))
        assert.deepStrictEqual(sorted((yield* repo.listByWorkspace(ws.id)).map((x) => x.id)), sorted([a.id, b.id]))
        assert.deepStrictEqual(yield* repo.listByWorkspace(other.id), [c])
      })
    )
  })
