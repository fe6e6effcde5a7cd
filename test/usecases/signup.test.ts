import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { sweepExpired } from "../../application/usecases/sweep.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(TestHost.layer()))

describe("signUp", () => {
  it.effect("creates an unclaimed workspace, an asks-first key and e-mails the claim link", () =>
    run(
      Effect.gen(function* () {
        const result = yield* signUp({ body: { email: "ann@herald-customer.org", agentName: "Claude" }, ip: "1.1.1.1" })
        assert.strictEqual(result.status, 201)
        const body = result.body
        assert.isTrue(body.apiKey!.startsWith("hrld_"))
        assert.strictEqual(body.key!.requireApproval, true)
        assert.strictEqual(body.key!.name, "Claude")
        assert.strictEqual(body.workspace!.claimed, false)
        const mail = (yield* SentMail).last("ann@herald-customer.org")!
        assert.match(mail.text, /http:\/\/herald\.test\/claim\?token=/)
        assert.notInclude(JSON.stringify(body), "token=")
        const actor = yield* authenticateKey(body.apiKey!)
        assert.strictEqual(actor.kind, "key")
      })
    )
  )

  it.effect("deletes the workspace and its key 7 days after sign-up when unclaimed", () =>
    run(
      Effect.gen(function* () {
        const result = yield* signUp({ body: { email: "bob@herald-customer.org" }, ip: "1.1.1.2" })
        yield* TestClock.adjust("7 days")
        const swept = yield* sweepExpired(100)
        assert.strictEqual(swept.workspaces, 1)
        const after = yield* Effect.flip(authenticateKey(result.body.apiKey!))
        assert.strictEqual(after.code, "unauthorized")
      })
    )
  )
})
