import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Facebook from "../../../adapters/networks/facebook/adapter.ts"
import * as ReelLedger from "../../../adapters/networks/facebook/reelLedger.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  appFor,
  callbackFor,
  connect,
  facebookOn,
  type Files,
  publishedOf,
  requestFor,
  setNow,
  startFiles,
  T0
} from "./support.ts"

let fake: FakeGraph
let files: Files
beforeAll(async () => {
  fake = await startFakeGraph()
  files = await startFiles(fake)
})
afterAll(async () => {
  await files.close()
  await fake.close()
})

/** Meta's request security (developers.facebook.com/docs/graph-api/securing-requests, /docs/facebook-login/facebook-login-for-business). */
describe("Meta's request security against the fake Graph API", () => {
  it.effect(
    "with Require App Secret on, every API call carries its appsecret_proof and its token in the Authorization header, never in the URL",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        fake.state.requireProof = true
        const network = facebookOn(fake, files)
        const start = fake.requests.length
        const bakery = (yield* connect(network)).find((c) => c.profile.externalId === "101000000000001")!
        const made = publishedOf(
          yield* network.publisher.publish(
            requestFor(accountOf("facebook", bakery), bakery.credentials!, { content: "Proof on every call" })
          )
        )
        assert.isTrue(made.url?.startsWith("https://www.facebook.com/"))
        const api = fake.requests.slice(start).filter((r) => /^\/v\d+\.\d+\/(?!dialog|oauth)/.test(r.path))
        assert.isAbove(api.length, 2)
        for (const r of api) {
          assert.notProperty(r.query, "access_token", `${r.method} ${r.path}`)
          assert.match(r.headers.authorization ?? "", /^(Bearer|OAuth) /, `${r.method} ${r.path}`)
          assert.match(r.query.appsecret_proof ?? String((r.body as any)?.appsecret_proof ?? ""), /^[0-9a-f]{64}$/)
        }
        // A proof made with another secret is refused as Meta refuses it.
        const wrong = Facebook.make(
          { ...appFor(fake, "facebook"), clientSecret: Redacted.make("not-the-app-secret") },
          files.blobs,
          ReelLedger.makeMemory()
        )
        const refused = yield* Effect.flip(
          wrong.publisher.publish(
            requestFor(accountOf("facebook", bakery), bakery.credentials!, { content: "Wrong secret" })
          )
        )
        assert.include(refused.message, "Invalid appsecret_proof")
        fake.state.requireProof = false
      })
  )

  it.effect(
    "with FACEBOOK_CONFIG_ID, Facebook Login for Business asks for the saved configuration instead of scopes",
    () =>
      Effect.gen(function* () {
        const network = Facebook.make(
          { ...appFor(fake, "facebook"), configId: "804123456789012" },
          files.blobs,
          ReelLedger.makeMemory()
        )
        const begun = yield* network.connector.begin({
          state: "st-c",
          callbackUrl: callbackFor("facebook"),
          formUrl: ""
        })
        const url = new URL(begun.url)
        assert.strictEqual(url.searchParams.get("config_id"), "804123456789012")
        assert.isFalse(url.searchParams.has("scope"))
        assert.strictEqual(url.searchParams.get("client_id"), fake.apps.facebook.clientId)
      })
  )
})
