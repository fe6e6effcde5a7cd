import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref } from "effect"
import { layer as storageLayer } from "../../adapters/memory/index.ts"
import { WorkspaceRepo, type WorkspaceRepoShape } from "../../application/ports/WorkspaceRepo.ts"
import { TestClock } from "effect/testing"
import * as ReadCache from "../../application/readCache.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { createKey, revokeKey } from "../../application/usecases/keys.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { signUp } from "../../application/usecases/signup.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

describe("ReadCache", () => {
  it.effect("serves a read for the time-to-live, then reads again; forgetting reads again at once", () =>
    Effect.gen(function* () {
      const loads = yield* Ref.make(0)
      const counting = Layer.succeed(WorkspaceRepo)({
        findById: () =>
          Effect.as(
            Ref.update(loads, (n) => n + 1),
            Option.none()
          ),
        insert: () => Effect.void,
        findByEmail: () => Effect.succeed(Option.none()),
        update: () => Effect.void
      } as unknown as WorkspaceRepoShape)
      const cache = yield* ReadCache.make(5000).pipe(Effect.provide(Layer.mergeAll(storageLayer, counting)))
      yield* cache.workspace("ws_1")
      yield* cache.workspace("ws_1")
      assert.strictEqual(yield* Ref.get(loads), 1)
      yield* TestClock.adjust("5 seconds")
      yield* cache.workspace("ws_1")
      assert.strictEqual(yield* Ref.get(loads), 2)
      yield* cache.forgetWorkspace("ws_1")
      yield* cache.workspace("ws_1")
      assert.strictEqual(yield* Ref.get(loads), 3)
      // A time-to-live of 0 reads through every time.
      const direct = yield* ReadCache.make(0).pipe(Effect.provide(Layer.mergeAll(storageLayer, counting)))
      yield* direct.workspace("ws_1")
      yield* direct.workspace("ws_1")
      assert.strictEqual(yield* Ref.get(loads), 5)
    })
  )

  it.effect("a key revoked through this process stops working at once, cache or not", () =>
    Effect.gen(function* () {
      const { body } = yield* signUp({ body: { email: "cache@herald-customer.org" }, ip: "1.1.1.1" })
      const agent = yield* authenticateKey(body.apiKey!)
      // Keys are made in a claimed workspace (README "Security").
      const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last("cache@herald-customer.org")!.text)![1]!
      yield* claimWorkspace(token, null)
      const person = {
        kind: "person" as const,
        workspaceId: agent.workspaceId,
        personId: "usr_x",
        name: "owner",
        email: "cache@herald-customer.org"
      }
      const made = yield* createKey(person, { name: "script", requireApproval: false })
      yield* authenticateKey(made.apiKey)
      yield* revokeKey(person, made.key.id)
      const refused = yield* Effect.flip(authenticateKey(made.apiKey))
      assert.strictEqual(refused.code, "unauthorized")
    }).pipe(Effect.provide(ReadCache.layer(60_000).pipe(Layer.provideMerge(TestHost.layer()))))
  )
})
