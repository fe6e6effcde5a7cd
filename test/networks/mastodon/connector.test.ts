import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryRegistry } from "../../../adapters/networks/mastodon/apps.ts"
import { makeMastodonClient } from "../../../adapters/networks/mastodon/client.ts"
import { parseInstance } from "../../../adapters/networks/mastodon/instance.ts"
import { makeRateGate } from "../../../adapters/networks/shared/rateGate.ts"
import { CALLBACK, connect, loopbackAllowed, mastodonOn } from "./support.ts"
import { type FakeMastodon, startFakeMastodon } from "./fakeMastodon.ts"

let fake: FakeMastodon
beforeAll(async () => {
  fake = await startFakeMastodon()
})
afterAll(() => fake?.close())

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect.pipe(Effect.provide(loopbackAllowed)))
const failure = async <A, E>(effect: Effect.Effect<A, E>) => {
  const exit = await run(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return JSON.stringify(exit.cause)
}

describe("Mastodon connector", () => {
  it("registers Herald on the instance once, then connects through its OAuth as username@instance", async () => {
    const apps = memoryRegistry()
    const before = fake.apps.length
    const { network } = await run(mastodonOn(apps))
    fake.state.authorizeAs = "109001"
    const [first] = await run(connect(network, fake.origin))
    expect(fake.apps.length).toBe(before + 1)
    expect(fake.apps.at(-1)).toMatchObject({ name: "Herald", redirectUri: CALLBACK, scopes: "read write" })
    const registration = fake.log.calls("POST", "/api/v1/apps").at(-1)!
    expect(registration.body).toMatchObject({ client_name: "Herald", redirect_uris: CALLBACK, scopes: "read write" })
    expect(first!.profile).toEqual({
      externalId: `109001@${fake.host}`,
      name: "Alice Example",
      username: `alice@${fake.host}`,
      avatarUrl: `${fake.origin}/avatars/109001.png`
    })
    expect(first!.credentials).toMatchObject({
      refreshToken: null,
      expiresAt: null,
      extra: { instance: fake.origin, accountId: "109001" }
    })
    expect(fake.issuedTokens()).toContain(first!.credentials!.accessToken)
    // The code exchange named the registered app and the same callback.
    const exchange = fake.log.calls("POST", "/oauth/token").at(-1)!
    expect(exchange.body).toMatchObject({
      grant_type: "authorization_code",
      client_id: fake.apps.at(-1)!.clientId,
      redirect_uri: CALLBACK
    })

    // A second account on the same instance: the stored registration, no new app.
    fake.state.authorizeAs = "109002"
    const [second] = await run(connect(network, fake.host.replace(/^/, "http://")))
    expect(second!.profile.username).toBe(`bob@${fake.host}`)
    expect(fake.apps.length).toBe(before + 1)
  })

  it("says what is wrong with an instance it will not call, before any request", async () => {
    const { network } = await run(mastodonOn())
    const calls = fake.log.requests.length
    const begin = (instance: string) =>
      failure(network.connector.begin({ state: "s", callbackUrl: CALLBACK, formUrl: "", params: { instance } }))
    // No instance named: Herald's own page asks for it.
    expect(
      await run(network.connector.begin({ state: "s t", callbackUrl: CALLBACK, formUrl: "http://h/form", params: {} }))
    ).toEqual({ url: "http://h/form?state=s%20t", verifier: null })
    expect(await begin("https://mastodon.social/about")).toContain("without a path")
    expect(await begin("http://mastodon.social")).toContain("https")
    expect(await begin("https://10.0.0.5")).toContain("private address")
    expect(await begin("https://192.168.1.20:8443")).toContain("private address")
    expect(fake.log.requests.length).toBe(calls)
    // Loopback only when a developer allows it.
    expect(parseInstance(fake.origin, false)).toMatchObject({ _tag: "InstanceRefused" })
    expect(parseInstance("@alice@Mastodon.Social", false)).toEqual({
      origin: "https://mastodon.social",
      host: "mastodon.social"
    })
  })

  it("reports a denied authorization and a bad code in the instance's own words", async () => {
    const { network } = await run(mastodonOn())
    fake.state.deny = true
    const denied = await failure(connect(network, fake.origin))
    fake.state.deny = false
    expect(denied).toContain("access_denied")
    const begun = await run(
      network.connector.begin({ state: "s", callbackUrl: CALLBACK, formUrl: "", params: { instance: fake.origin } })
    )
    const bad = await failure(
      network.connector.complete({
        params: { code: "nope", state: "s" },
        callbackUrl: CALLBACK,
        verifier: begun.verifier
      })
    )
    expect(bad).toContain("authorization grant is invalid")
  })

  it("every call to an instance is judged by the one address guard when it connects", async () => {
    // The client alone, past the connector's early check: the socket itself is refused without the setting.
    const client = makeMastodonClient(makeRateGate())
    const profile = client.call({
      origin: fake.origin,
      method: "GET",
      path: "/api/v2/instance",
      accessToken: null,
      account: null
    })
    const calls = fake.log.requests.length
    const exit = await Effect.runPromise(Effect.exit(profile))
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toMatch(/NoAnswer.*loopback/)
    expect(fake.log.requests.length).toBe(calls)
    expect((await run(profile)).status).toBe(200)
    expect(fake.log.requests.length).toBe(calls + 1)
  })
})
