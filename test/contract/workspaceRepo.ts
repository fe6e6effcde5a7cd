import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { ApiKeyRepo } from "../../application/ports/ApiKeyRepo.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { TokenRepo } from "../../application/ports/TokenRepo.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { claim } from "../../domain/workspace.ts"
import { DAY_MS } from "../../domain/time.ts"
import {
  account,
  apiKey,
  layerOptions,
  media,
  post,
  seedWorkspace,
  type SuiteOptions,
  T0,
  workspace
} from "./fixtures.ts"

type Ports = WorkspaceRepo | ApiKeyRepo | TokenRepo | AccountRepo | MediaRepo | PostRepo

export const workspaceRepoContract = (name: string, ports: Layer.Layer<Ports, unknown>, options?: SuiteOptions) =>
  layer(ports, layerOptions(options))(`WorkspaceRepo contract (${name})`, (it) => {
    it.effect("stores a workspace and finds it by id and by owner e-mail", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const ws = workspace({ locale: "ja", plan: "pro" })
        yield* repo.insert(ws)
        assert.deepStrictEqual(yield* repo.findById(ws.id), Option.some(ws))
        assert.deepStrictEqual(yield* repo.findByEmail(ws.ownerEmail), Option.some(ws))
        assert.isTrue(Option.isNone(yield* repo.findById("ws_missing")))
        assert.isTrue(Option.isNone(yield* repo.findByEmail("nobody@herald.test")))
      })
    )

    it.effect("refuses a second workspace for the same owner e-mail with EmailTaken", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const first = yield* seedWorkspace()
        const error = yield* repo.insert(workspace({ ownerEmail: first.ownerEmail })).pipe(Effect.flip)
        assert.strictEqual(error._tag, "EmailTaken")
        assert.deepStrictEqual(yield* repo.findByEmail(first.ownerEmail), Option.some(first))
      })
    )

    it.effect("of concurrent sign-ups with one e-mail exactly one succeeds", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const email = workspace().ownerEmail
        const results = yield* Effect.forEach(
          Array.from({ length: 10 }, () => workspace({ ownerEmail: email })),
          (ws) => Effect.result(repo.insert(ws)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 1)
      })
    )

    it.effect("update replaces the stored workspace", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const ws = yield* seedWorkspace()
        const claimed = { ...claim(ws, "ja"), name: "Renamed" }
        yield* repo.update(claimed)
        assert.deepStrictEqual(yield* repo.findById(ws.id), Option.some(claimed))
      })
    )

    it.effect("lists unclaimed workspaces whose lifetime ended at or before now", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const now = T0 + 30 * DAY_MS
        const ended = yield* seedWorkspace({ expiresAt: now - 1 })
        const endsNow = yield* seedWorkspace({ expiresAt: now })
        const later = yield* seedWorkspace({ expiresAt: now + 1 })
        const claimedOne = yield* seedWorkspace({ claimed: true, expiresAt: null })
        const ids = (yield* repo.listExpiredUnclaimed(now, 1000)).map((w) => w.id)
        assert.include(ids, ended.id)
        assert.include(ids, endsNow.id)
        assert.notInclude(ids, later.id)
        assert.notInclude(ids, claimedOne.id)
        assert.strictEqual((yield* repo.listExpiredUnclaimed(now, 1)).length, 1)
      })
    )

    it.effect("counts workspaces created in [from, to)", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const from = Date.UTC(2031, 5, 1)
        const to = from + DAY_MS
        for (const createdAt of [from - 1, from, from + 1000, to - 1, to]) yield* seedWorkspace({ createdAt })
        assert.strictEqual(yield* repo.countCreatedBetween(from, to), 3)
        assert.strictEqual(yield* repo.countCreatedBetween(to + DAY_MS, to + 2 * DAY_MS), 0)
      })
    )

    it.effect("delete removes the workspace and everything it owns, and nothing else", () =>
      Effect.gen(function* () {
        const repo = yield* WorkspaceRepo
        const keys = yield* ApiKeyRepo
        const tokens = yield* TokenRepo
        const accounts = yield* AccountRepo
        const medias = yield* MediaRepo
        const posts = yield* PostRepo
        const seed = Effect.fnUntraced(function* () {
          const ws = yield* seedWorkspace()
          const key = apiKey(ws.id)
          yield* keys.insert(key)
          const hash = `tok-${ws.id}`
          yield* tokens.insert({
            hash,
            kind: "session",
            workspaceId: ws.id,
            email: ws.ownerEmail,
            data: null,
            createdAt: T0,
            expiresAt: T0 + DAY_MS
          })
          const acc = yield* accounts.upsert(account(ws.id))
          const med = media(ws.id)
          yield* medias.insert(med)
          const p = post(ws.id)
          yield* posts.insert(p)
          return { ws, key, hash, acc, med, p }
        })
        const gone = yield* seed()
        const kept = yield* seed()
        yield* repo.delete(gone.ws.id)

        assert.isTrue(Option.isNone(yield* repo.findById(gone.ws.id)))
        assert.isTrue(Option.isNone(yield* keys.findByHash(gone.key.hash)))
        assert.isTrue(Option.isNone(yield* tokens.find(gone.hash, "session", T0)))
        assert.isTrue(Option.isNone(yield* accounts.findById(gone.ws.id, gone.acc.id)))
        assert.isTrue(Option.isNone(yield* medias.findById(gone.ws.id, gone.med.id)))
        assert.isTrue(Option.isNone(yield* posts.findById(gone.ws.id, gone.p.id)))
        // The address is free again.
        yield* repo.insert(workspace({ ownerEmail: gone.ws.ownerEmail }))

        assert.isTrue(Option.isSome(yield* repo.findById(kept.ws.id)))
        assert.isTrue(Option.isSome(yield* keys.findByHash(kept.key.hash)))
        assert.isTrue(Option.isSome(yield* tokens.find(kept.hash, "session", T0)))
        assert.isTrue(Option.isSome(yield* accounts.findById(kept.ws.id, kept.acc.id)))
        assert.isTrue(Option.isSome(yield* medias.findById(kept.ws.id, kept.med.id)))
        assert.isTrue(Option.isSome(yield* posts.findById(kept.ws.id, kept.p.id)))
      })
    )
  })
