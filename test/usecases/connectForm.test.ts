import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { connector as sandboxConnector } from "../../adapters/networks/sandbox/index.ts"
import { defaultLimits } from "../../application/config.ts"
import { Connectors } from "../../application/ports/Connectors.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import { connectUrl, continueConnect } from "../../application/usecases/connectLink.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { completeFormConnect, FORM_REFUSED } from "../../application/usecases/connectForm.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

// The password form (Bluesky's) as an oracle: each refusal the network can give, told apart before.
const refusals = {
  "wrong.test": invalidFields(
    ["appPassword"],
    "Bluesky did not accept this handle and app password (Invalid identifier or password)."
  ),
  "main.test": invalidFields(["appPassword"], "This is the account's main password; use an app password."),
  "nobody.test": invalidFields(["handle"], "Unable to resolve handle. Check the handle."),
  "gone.test": fail("upstream_rejected", { reason: "AccountTakedown" }, "Account has been taken down")
} as const

let networkCalls = 0
const refusing = Layer.succeed(Connectors)(
  connectorsOf([
    {
      ...sandboxConnector,
      complete: (input) => {
        networkCalls++
        const refusal = refusals[input.params.handle as keyof typeof refusals]
        return refusal === undefined ? sandboxConnector.complete(input) : Effect.fail(refusal)
      }
    }
  ])
)

const limits = { ...defaultLimits, connectFormPerWorkspacePerHour: 8, connectFormPerAddressPerHour: 12 }
const host = Layer.merge(TestHost.layer({ limits }), refusing)

let n = 0
const workspace = Effect.gen(function* () {
  const { body } = yield* signUp({ body: { email: `form${++n}@herald-customer.org` }, ip: "10.0.0.8" })
  return yield* authenticateKey(body.apiKey!)
})

/** A link continued in a browser: its state and the browser's value. */
const link = (actor: Effect.Success<typeof workspace>) =>
  Effect.gen(function* () {
    const state = new URL((yield* connectUrl(actor, "sandbox")).url).searchParams.get("state")!
    const { browser } = yield* continueConnect("sandbox", state, null, null)
    return { state, browser }
  })

const tryForm = (l: { state: string; browser: string }, handle: string, address = "203.0.113.9") =>
  Effect.flip(completeFormConnect("sandbox", { state: l.state, handle, appPassword: "x" }, l.browser, address))

describe("the password connect form is not an oracle", () => {
  it.effect("a wrong password, the main password, an unknown handle and a closed account are one refusal", () =>
    Effect.gen(function* () {
      const actor = yield* workspace
      const l = yield* link(actor)
      const seen = []
      for (const handle of Object.keys(refusals)) {
        const e = yield* tryForm(l, handle)
        seen.push({ code: e.code, message: e.detail, details: e.details })
      }
      assert.deepStrictEqual(seen[0], {
        code: "validation_failed",
        message: FORM_REFUSED,
        details: { fields: ["handle", "appPassword"] }
      })
      for (const s of seen) assert.deepStrictEqual(s, seen[0])
    }).pipe(Effect.provide(host))
  )

  it.effect("a form without a password (Telegram's bot token and chat) keeps the network's own reason and field", () =>
    Effect.gen(function* () {
      const actor = yield* workspace
      const l = yield* link(actor)
      const e = yield* Effect.flip(
        completeFormConnect("sandbox", { state: l.state, handle: "nobody.test", chat: "@x" }, l.browser, "203.0.113.7")
      )
      assert.deepStrictEqual(e.details, { fields: ["handle"] })
      assert.strictEqual(e.detail, "Unable to resolve handle. Check the handle.")
    }).pipe(Effect.provide(host))
  )

  it.effect("five tries per link reach the network; the sixth spends the link without reaching it", () =>
    Effect.gen(function* () {
      const actor = yield* workspace
      const l = yield* link(actor)
      networkCalls = 0
      for (let i = 0; i < 5; i++) assert.strictEqual((yield* tryForm(l, "wrong.test")).detail, FORM_REFUSED)
      assert.strictEqual(networkCalls, 5)
      const spent = yield* tryForm(l, "alice.test")
      assert.include(spent.detail, "is spent")
      assert.strictEqual(networkCalls, 5)
      // Spent for good: the right password no longer connects with it.
      const after = yield* tryForm(l, "alice.test")
      assert.deepStrictEqual(after.details, { fields: ["state"] })
      assert.strictEqual(networkCalls, 5)
    }).pipe(Effect.provide(host))
  )

  it.effect(
    "tries an hour per workspace, then 429 rate_limited with the wait, whatever the link; an hour later again",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-02-01T10:00:00Z"))
        const actor = yield* workspace
        for (let i = 0; i < 4; i++) {
          const l = yield* link(actor)
          for (let t = 0; t < 2; t++) yield* tryForm(l, "wrong.test", `198.51.100.${i}`)
        }
        networkCalls = 0
        const limited = yield* tryForm(yield* link(actor), "wrong.test", "198.51.100.99")
        assert.strictEqual(limited.code, "rate_limited")
        assert.deepStrictEqual(limited.details, { retryAfterSeconds: 3600 })
        assert.strictEqual(networkCalls, 0)
        yield* TestClock.adjust("1 hour")
        assert.strictEqual((yield* tryForm(yield* link(actor), "wrong.test", "198.51.100.99")).detail, FORM_REFUSED)
      }).pipe(Effect.provide(host))
  )

  it.effect("tries an hour per client address, across workspaces", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-02-01T10:00:00Z"))
      for (let i = 0; i < 3; i++) {
        const actor = yield* workspace
        for (let t = 0; t < 4; t++) yield* tryForm(yield* link(actor), "wrong.test", "192.0.2.44")
      }
      const limited = yield* tryForm(yield* link(yield* workspace), "wrong.test", "192.0.2.44")
      assert.strictEqual(limited.code, "rate_limited")
      // Another address is not held back by this one.
      const other = yield* tryForm(yield* link(yield* workspace), "wrong.test", "192.0.2.45")
      assert.strictEqual(other.detail, FORM_REFUSED)
    }).pipe(Effect.provide(host))
  )
})
