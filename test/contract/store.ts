import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, type Layer, Option } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { ApiKeyRepo } from "../../application/ports/ApiKeyRepo.ts"
import { IdempotencyStore } from "../../application/ports/IdempotencyStore.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import { TokenRepo } from "../../application/ports/TokenRepo.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { DAY_MS } from "../../domain/time.ts"
import {
  account,
  apiKey,
  layerOptions,
  media,
  newId,
  post,
  seedWorkspace,
  type SuiteOptions,
  T0,
  workspace
} from "./fixtures.ts"

type Ports =
  | Store
  | WorkspaceRepo
  | ApiKeyRepo
  | TokenRepo
  | AccountRepo
  | MediaRepo
  | PostRepo
  | IdempotencyStore
  | UsageCounter
  | JobQueue

class Boom {
  readonly _tag = "Boom"
}

/** Writes through every repository inside one transaction; returns what to look for afterwards. */
const writeEverything = (workspaceId: string) =>
  Effect.gen(function* () {
    const ws = workspace()
    yield* (yield* WorkspaceRepo).insert(ws)
    const key = apiKey(workspaceId)
    yield* (yield* ApiKeyRepo).insert(key)
    const tokenHash = newId("tok")
    yield* (yield* TokenRepo).insert({
      hash: tokenHash,
      kind: "claim",
      workspaceId,
      email: ws.ownerEmail,
      data: null,
      createdAt: T0,
      expiresAt: T0 + DAY_MS
    })
    const acc = account(workspaceId)
    yield* (yield* AccountRepo).upsert(acc)
    const med = media(workspaceId)
    yield* (yield* MediaRepo).insert(med)
    const p = post(workspaceId)
    yield* (yield* PostRepo).insert(p)
    const idem = {
      scope: workspaceId,
      key: newId("idem"),
      requestHash: "h",
      postId: p.id,
      createdAt: T0,
      expiresAt: T0 + DAY_MS
    }
    yield* (yield* IdempotencyStore).claim(idem, T0)
    const count = yield* (yield* UsageCounter).increment(workspaceId, "2026-01")
    return { ws, key, tokenHash, acc, med, p, idem, count }
  })

type Written = Effect.Success<ReturnType<typeof writeEverything>>

const present = (workspaceId: string, w: Written) =>
  Effect.gen(function* () {
    return {
      workspace: Option.isSome(yield* (yield* WorkspaceRepo).findById(w.ws.id)),
      key: Option.isSome(yield* (yield* ApiKeyRepo).findByHash(w.key.hash)),
      token: Option.isSome(yield* (yield* TokenRepo).find(w.tokenHash, "claim", T0)),
      account: Option.isSome(yield* (yield* AccountRepo).findById(workspaceId, w.acc.id)),
      media: Option.isSome(yield* (yield* MediaRepo).findById(workspaceId, w.med.id)),
      post: Option.isSome(yield* (yield* PostRepo).findById(workspaceId, w.p.id)),
      // A second claim sees the first only if the first was kept.
      idempotency: Option.isSome(yield* (yield* IdempotencyStore).claim({ ...w.idem, postId: "post_other" }, T0))
    }
  })

const none = {
  workspace: false,
  key: false,
  token: false,
  account: false,
  media: false,
  post: false,
  idempotency: false
}
const all = { workspace: true, key: true, token: true, account: true, media: true, post: true, idempotency: true }

export const storeContract = (name: string, ports: Layer.Layer<Ports, unknown>, options?: SuiteOptions) =>
  layer(ports, layerOptions(options))(`Store contract (${name})`, (it) => {
    it.effect("WorkspaceRepo.lock makes concurrent check-then-insert transactions take turns (the upload quota)", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const ws = yield* seedWorkspace()
        const attempt = store.transaction(
          Effect.gen(function* () {
            yield* (yield* WorkspaceRepo).lock(ws.id)
            const count = yield* (yield* MediaRepo).countByWorkspace(ws.id)
            if (count >= 10) return false
            yield* (yield* MediaRepo).insert(media(ws.id))
            return true
          })
        )
        const results = yield* Effect.forEach(
          Array.from({ length: 25 }, () => attempt),
          (a) => a,
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter(Boolean).length, 10)
        assert.strictEqual(yield* (yield* MediaRepo).countByWorkspace(ws.id), 10)
      })
    )

    it.effect("a transaction that succeeds keeps every write", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const ws = yield* seedWorkspace()
        const written = yield* store.transaction(writeEverything(ws.id))
        assert.deepStrictEqual(yield* present(ws.id, written), all)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 1)
      })
    )

    it.effect("a transaction that fails rolls back every write, usage included, and keeps its error", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        yield* usage.increment(ws.id, "2026-01")
        let written: Written | undefined
        const error = yield* store
          .transaction(
            Effect.gen(function* () {
              written = yield* writeEverything(ws.id)
              assert.strictEqual(written.count, 2)
              return yield* Effect.fail(new Boom())
            })
          )
          .pipe(Effect.flip)
        assert.instanceOf(error, Boom)
        assert.deepStrictEqual(yield* present(ws.id, written!), none)
        assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 1)
      })
    )

    it.effect("a failed transaction gives back rows it changed or deleted, as they were", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const posts = yield* PostRepo
        const queue = yield* JobQueue
        const ws = yield* seedWorkspace()
        const original = post(ws.id)
        yield* posts.insert(original)
        const job = {
          id: newId("job"),
          kind: "publish" as const,
          workspaceId: ws.id,
          postId: original.id,
          accountId: "acc_1",
          runAt: T0,
          attempts: 0
        }
        yield* queue.enqueue([job])
        const exit = yield* store
          .transaction(
            Effect.gen(function* () {
              yield* posts.update({ ...original, content: "changed", deletedAt: T0 + 1, deletedReason: "cancelled" })
              yield* queue.removeForPost(original.id)
              assert.deepStrictEqual(
                (yield* queue.pending()).filter((j) => j.postId === original.id),
                []
              )
              return yield* Effect.fail(new Boom())
            })
          )
          .pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* posts.findById(ws.id, original.id), Option.some(original))
        assert.deepStrictEqual(
          (yield* queue.pending()).filter((j) => j.postId === original.id).map((j) => j.id),
          [job.id]
        )
      })
    )

    it.effect("a failed transaction undoes only its own writes, not what other fibers wrote meanwhile", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const repo = yield* WorkspaceRepo
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        const [mine, theirs, theirsInTransaction] = [workspace(), workspace(), workspace()]
        const opened = yield* Deferred.make<void>()
        const othersDone = yield* Deferred.make<void>()
        const failing = store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(mine)
            yield* usage.increment(ws.id, "2026-06")
            yield* Deferred.succeed(opened, undefined)
            // The others run while this transaction is open, as far as the store lets them: on a
            // one-connection database they wait for it, so this waits only as long as they take to get going.
            for (let i = 0; i < 50 && !(yield* Deferred.isDone(othersDone)); i++) yield* Effect.yieldNow
            return yield* Effect.fail(new Boom())
          })
        )
        const others = Effect.gen(function* () {
          yield* Deferred.await(opened)
          yield* Effect.all(
            [
              Effect.andThen(repo.insert(theirs), usage.increment(ws.id, "2026-06")),
              store.transaction(repo.insert(theirsInTransaction))
            ],
            {
              concurrency: "unbounded"
            }
          )
          yield* Deferred.succeed(othersDone, undefined)
        })
        const [exit] = yield* Effect.all([Effect.exit(failing), others], { concurrency: "unbounded" })
        assert.isTrue(Exit.isFailure(exit))
        assert.isTrue(Option.isNone(yield* repo.findById(mine.id)))
        assert.isTrue(Option.isSome(yield* repo.findById(theirs.id)), "a write outside the transaction stays")
        assert.isTrue(Option.isSome(yield* repo.findById(theirsInTransaction.id)), "another transaction's write stays")
        // The other increment counts; the failed transaction's does not.
        assert.strictEqual(yield* usage.current(ws.id, "2026-06"), 1)
      })
    )

    it.effect("a defect inside a transaction rolls it back too", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const ws = yield* seedWorkspace()
        let written: Written | undefined
        const exit = yield* store
          .transaction(
            Effect.gen(function* () {
              written = yield* writeEverything(ws.id)
              return yield* Effect.die(new Error("bug"))
            })
          )
          .pipe(Effect.exit)
        assert.isTrue(Exit.hasDies(exit))
        assert.deepStrictEqual(yield* present(ws.id, written!), none)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 0)
      })
    )

    it.effect("EmailTaken inside a transaction can be handled and the transaction goes on", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const repo = yield* WorkspaceRepo
        const taken = yield* seedWorkspace()
        const fresh = workspace()
        yield* store.transaction(
          Effect.gen(function* () {
            const error = yield* repo.insert(workspace({ ownerEmail: taken.ownerEmail })).pipe(Effect.flip)
            assert.strictEqual(error._tag, "EmailTaken")
            yield* repo.insert(fresh)
          })
        )
        assert.isTrue(Option.isSome(yield* repo.findById(fresh.id)))
      })
    )

    it.effect("50 concurrent transactions that increment and fail past 30 never count past 30", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        const attempt = store.transaction(
          Effect.gen(function* () {
            const count = yield* usage.increment(ws.id, "2026-04")
            if (count > 30) return yield* Effect.fail(new Boom())
            return count
          })
        )
        const results = yield* Effect.forEach(Array.from({ length: 50 }), () => Effect.result(attempt), {
          concurrency: "unbounded"
        })
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 30)
        assert.strictEqual(results.filter((r) => r._tag === "Failure").length, 20)
        assert.strictEqual(yield* usage.current(ws.id, "2026-04"), 30)
      })
    )

    it.effect("50 concurrent create-post transactions with one idempotency key create one post", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const claims = yield* IdempotencyStore
        const posts = yield* PostRepo
        const usage = yield* UsageCounter
        const ws = yield* seedWorkspace()
        const key = newId("idem")
        // What createPost does: claim the key, and only when the claim is new store the post and count it.
        const create = store.transaction(
          Effect.gen(function* () {
            const p = post(ws.id)
            const held = yield* claims.claim(
              { scope: ws.id, key, requestHash: "h", postId: p.id, createdAt: T0, expiresAt: T0 + DAY_MS },
              T0
            )
            if (Option.isSome(held)) return held.value.postId
            yield* posts.insert(p)
            yield* usage.increment(ws.id, "2026-05")
            return p.id
          })
        )
        const ids = yield* Effect.forEach(Array.from({ length: 50 }), () => create, { concurrency: "unbounded" })
        assert.strictEqual(new Set(ids).size, 1)
        assert.deepStrictEqual(
          (yield* posts.list(ws.id, { limit: 100 })).map((p) => p.id),
          [ids[0]]
        )
        assert.strictEqual(yield* usage.current(ws.id, "2026-05"), 1)
      })
    )
  })
