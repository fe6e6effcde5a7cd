import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import * as ReadCache from "../../application/readCache.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { createKey, revokeKey } from "../../application/usecases/keys.ts"
import { signUp } from "../../application/usecases/signup.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

describe("ReadCache", () => {
  it.effect("serves a value for the time-to-live, then reads again; failures are not kept", () =>
    Effect.gen(function* () {
      const cache = ReadCache.make(5000)
      const loads = yield* Ref.make(0)
      const load = Ref.updateAndGet(loads, (n) => n + 1)
      assert.strictEqual(yield* cache.get("k", load), 1)
      assert.strictEqual(yield* cache.get("k", load), 1)
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* cache.get("k", load), 2)
      yield* cache.invalidate("k")
      assert.strictEqual(yield* cache.get("k", load), 3)
      const failing = yield* Effect.flip(cache.get("f", Effect.fail("nope")))
      assert.strictEqual(failing, "nope")
      assert.strictEqual(yield* cache.get("f", Effect.succeed("now")), "now")
    }))

  it.effect("a key revoked through this process stops working at once, cache or not", () =>
    Effect.gen(function* () {
      const { body } = yield* signUp({ body: { email: "cache@herald-customer.org" }, ip: "1.1.1.1" })
      const agent = yield* authenticateKey(body.apiKey!)
      const person = { kind: "person" as const, workspaceId: agent.workspaceId, personId: "usr_x", name: "owner", email: "cache@herald-customer.org" }
      const made = yield* createKey(person, { name: "script", requireApproval: false })
      yield* authenticateKey(made.apiKey)
      yield* revokeKey(person, made.key.id)
      const refused = yield* Effect.flip(authenticateKey(made.apiKey))
      assert.strictEqual(refused.code, "unauthorized")
    }).pipe(Effect.provide(Layer.merge(TestHost.layer(), ReadCache.layer(60_000)))))
})
