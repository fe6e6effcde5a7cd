import { type Config, ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { allowLoopbackConfig, heraldConfig } from "../../application/config.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* config
    }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))
  )

describe("HERALD_ALLOW_LOOPBACK: one development setting for every outbound call", () => {
  it("is off by default, on by its name or by its older webhook name, in the schema and the webhook sender", async () => {
    expect(await read(allowLoopbackConfig, {})).toBe(false)
    expect(await read(allowLoopbackConfig, { HERALD_ALLOW_LOOPBACK: "true" })).toBe(true)
    expect(await read(allowLoopbackConfig, { HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true" })).toBe(true)
    expect((await read(heraldConfig, { HERALD_ALLOW_LOOPBACK: "true" })).allowLoopback).toBe(true)
    const sender = await read(HttpWebhookSender.optionsConfig, { HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true" })
    expect(sender.allowLoopback).toBe(true)
  })
})
