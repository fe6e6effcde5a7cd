import { spawnSync } from "node:child_process"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as ReelLedger from "../../adapters/networks/facebook/reelLedger.ts"
import * as SandboxPublisher from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import type { Network } from "../../application/ports/Network.ts"
import type { NetworkDeclaration } from "../../adapters/networks/shared/declaration.ts"
import { describe, expect, it } from "vitest"
import { networkRules } from "../../domain/networkRules.ts"
import { platformNames, platforms } from "../../domain/platforms.ts"
import { networks } from "../../hosts/networks.ts"

/** The one list of networks, and what Herald derives from the folders' declarations. */
describe("the networks' declarations", () => {
  it("are what the domain knows: its platforms, names and rules table (npm run networks is current)", () => {
    expect(platforms).toEqual(networks.map((n) => n.platform))
    expect(platformNames).toEqual(Object.fromEntries(networks.map((n) => [n.platform, n.label])))
    expect(networkRules).toEqual(Object.fromEntries(networks.map((n) => [n.platform, n.rules])))
  })

  it("are the README's list", () => {
    const run = spawnSync(process.execPath, ["scripts/networks.ts", "--check"], { encoding: "utf8" })
    expect(run.status, run.stderr).toBe(0)
  })

  it("say truly what their adapters do before they load (renewal, boards), and name their own platform", async () => {
    // Every network turned on with placeholder apps: the adapters are built, never called.
    const env = Object.fromEntries(
      ["X", "LINKEDIN", "FACEBOOK", "INSTAGRAM", "THREADS", "YOUTUBE", "PINTEREST", "REDDIT"].flatMap((n) => [
        [`${n}_CLIENT_ID`, "id"],
        [`${n}_CLIENT_SECRET`, "secret"]
      ])
    )
    const services = Layer.mergeAll(
      MemoryBlobStore.layer("http://herald.test").pipe(Layer.provide(HmacFileLinks.layer("secret"))),
      SandboxPublisher.layerTest,
      ReelLedger.layerTest
    )
    for (const declaration of networks as ReadonlyArray<NetworkDeclaration>) {
      const adapter = await Effect.runPromise(
        Effect.gen(function* () {
          const settings = Option.getOrThrow(yield* declaration.config)
          const module = yield* Effect.promise(() => declaration.load())
          return yield* module.build(settings)
        }).pipe(
          Effect.provide(services),
          Effect.provide(
            ConfigProvider.layer(
              ConfigProvider.fromEnv({ env: { ...env, TIKTOK_CLIENT_KEY: "key", TIKTOK_CLIENT_SECRET: "secret" } })
            )
          )
        ) as Effect.Effect<Network>
      )
      expect(adapter.platform, declaration.platform).toBe(declaration.platform)
      expect(adapter.connector.refresh !== undefined, `${declaration.platform} renews`).toBe(declaration.renews)
      expect(adapter.publisher.boards !== undefined, `${declaration.platform} boards`).toBe(declaration.boards === true)
    }
  })

  it("each migration id is its own, in the networks' range", () => {
    const ids = networks.flatMap((n) => Object.keys(n.migrations ?? {}))
    expect(new Set(ids).size).toBe(ids.length)
    // 004x: the networks' own; 0070-0074: the take-down's (the sandbox ledger's removals).
    for (const id of ids) expect(id).toMatch(/^00(4\d|7[0-4])_/)
  })
})
