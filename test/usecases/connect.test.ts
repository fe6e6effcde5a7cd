import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { connector as sandboxConnector } from "../../adapters/networks/sandbox/index.ts"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { Connectors } from "../../application/ports/Connectors.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import { completeConnect } from "../../application/usecases/completeConnect.ts"
import { connectUrl, continueConnect } from "../../application/usecases/connectLink.ts"
import { authenticateSession } from "../../application/usecases/auth.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { fail } from "../../domain/errors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

/** A network whose first answer refuses what the person typed (a wrong app password), then accepts. */
let refusals = 1
const picky = Layer.succeed(Connectors)(
  connectorsOf([
    {
      ...sandboxConnector,
      complete: (input) =>
        refusals-- > 0
          ? Effect.fail(fail("validation_failed", { fields: ["appPassword"] }, "Wrong app password."))
          : sandboxConnector.complete(input)
    }
  ])
)

describe("connecting an account", () => {
  it.effect("a refusal by the network leaves the link usable; once connected it is used up", () =>
    Effect.gen(function* () {
      yield* signUp({ body: { email: "links@herald-customer.org" }, ip: "10.0.0.7" })
      const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last("links@herald-customer.org")!.text)![1]
      const { actor } = yield* authenticateSession((yield* claimWorkspace(token, null)).session.token)
      const state = new URL((yield* connectUrl(actor, "sandbox")).url).searchParams.get("state")!
      const { browser } = yield* continueConnect("sandbox", state, null, null)
      const refused = yield* Effect.flip(completeConnect("sandbox", { state, username: "ann" }, browser))
      assert.deepStrictEqual(refused.details, { fields: ["appPassword"] })
      const { account } = yield* completeConnect("sandbox", { state, username: "ann" }, browser)
      assert.strictEqual(account.username, "ann")
      const again = yield* Effect.flip(completeConnect("sandbox", { state, username: "ann" }, browser))
      assert.deepStrictEqual(again.details, { fields: ["state"] })
    }).pipe(Effect.provide(Layer.merge(TestHost.layer(), picky)))
  )
})
