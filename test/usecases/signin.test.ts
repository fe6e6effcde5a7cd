import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { requestSignInLink } from "../../application/usecases/signin.ts"
import { signUp } from "../../application/usecases/signup.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

/** A workspace lookup by address that waits for `gate` while `held` is set: shows whether an answer waited for it. */
class LookupGate {
  held = false
  readonly gate: Deferred.Deferred<void>
  constructor(gate: Deferred.Deferred<void>) {
    this.gate = gate
  }
}

const gated = (gate: LookupGate) =>
  Layer.effect(WorkspaceRepo)(
    Effect.map(WorkspaceRepo, (repo) => ({
      ...repo,
      findByEmail: (email: string) =>
        gate.held ? Effect.andThen(Deferred.await(gate.gate), repo.findByEmail(email)) : repo.findByEmail(email)
    }))
  )

const signInMails = (to: string) =>
  Effect.map(SentMail, (sent) => sent.all().filter((m) => m.to === to && m.text.includes("/signin/complete?token=")))

describe("requestSignInLink", () => {
  it.effect(
    "answers an owner and a stranger the same way, before looking the address up; only the owner gets mail",
    () =>
      Effect.gen(function* () {
        const gate = new LookupGate(yield* Deferred.make<void>())
        const owner = "owner@herald-customer.org"
        const stranger = "stranger@herald-customer.org"
        yield* Effect.gen(function* () {
          yield* signUp({ body: { email: owner }, ip: "192.0.2.1" })
          gate.held = true
          // Both answers come back while the lookup cannot finish: whether the address has a workspace cannot change them or their timing.
          const toOwner = yield* requestSignInLink(owner)
          const toStranger = yield* requestSignInLink(stranger)
          assert.deepStrictEqual(toOwner, toStranger)
          assert.lengthOf(yield* signInMails(owner), 0)
          yield* Deferred.succeed(gate.gate, undefined)
          for (let i = 0; i < 1000 && (yield* signInMails(owner)).length === 0; i++) yield* Effect.yieldNow
          assert.lengthOf(yield* signInMails(owner), 1)
          assert.lengthOf(yield* signInMails(stranger), 0)
        }).pipe(Effect.provide(gated(gate).pipe(Layer.provideMerge(TestHost.layer()))))
      })
  )
})
