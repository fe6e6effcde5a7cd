import { assert, describe, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import { TokenVault } from "../../application/ports/TokenVault.ts"

describe("token vault (AES-256-GCM)", () => {
  it.effect("seals to a text that does not contain the secret and opens it again", () =>
    Effect.gen(function* () {
      const vault = AesGcmVault.make("the server secret")
      const sealed = yield* vault.seal(JSON.stringify({ accessToken: "xoxo-access", refreshToken: "xoxo-refresh" }))
      assert.notInclude(sealed, "xoxo-access")
      assert.notInclude(sealed, "xoxo-refresh")
      assert.match(sealed, /^v1\.[0-9a-f]{8}\./)
      assert.deepStrictEqual(JSON.parse(yield* vault.open(sealed)), {
        accessToken: "xoxo-access",
        refreshToken: "xoxo-refresh"
      })
      // A fresh IV every time: sealing twice gives two texts.
      assert.notStrictEqual(yield* vault.seal("same"), yield* vault.seal("same"))
    })
  )

  it.effect("a previous secret still opens what it sealed, while new texts use the current one", () =>
    Effect.gen(function* () {
      const old = yield* AesGcmVault.make("old secret").seal("refresh-token")
      const rotated = AesGcmVault.make("new secret", ["old secret"])
      assert.strictEqual(yield* rotated.open(old), "refresh-token")
      const again = yield* rotated.seal("refresh-token")
      assert.strictEqual(yield* AesGcmVault.make("new secret").open(again), "refresh-token")
      assert.isTrue(Exit.isFailure(yield* Effect.exit(AesGcmVault.make("old secret").open(again))))
    })
  )

  it.effect("a changed secret or a damaged text fails as VaultSealBroken, never as a defect", () =>
    Effect.gen(function* () {
      const sealed = yield* AesGcmVault.make("a").seal("x")
      const wrongKey = yield* Effect.flip(AesGcmVault.make("b").open(sealed))
      assert.strictEqual(wrongKey._tag, "VaultSealBroken")
      const parts = sealed.split(".")
      parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith("AA") ? "BB" : "AA")
      assert.strictEqual(
        (yield* Effect.flip(AesGcmVault.make("a").open(parts.join(".")))).message,
        "The sealed credentials are damaged."
      )
      assert.strictEqual(
        (yield* Effect.flip(AesGcmVault.make("a").open("not sealed"))).message.includes("secret"),
        true
      )
    })
  )

  it.effect("without HERALD_SECRET it makes one secret file (0600) and keeps using it", () =>
    Effect.gen(function* () {
      const file = join(mkdtempSync(join(tmpdir(), "herald-vault-")), "data", "secret")
      const noEnv = ConfigProvider.fromUnknown({})
      const build = TokenVault.pipe(
        Effect.provide(AesGcmVault.layerConfig(file).pipe(Layer.provide(ConfigProvider.layer(noEnv))))
      )
      const sealed = yield* Effect.flatMap(build, (v) => v.seal("token"))
      assert.strictEqual(statSync(file).mode & 0o777, 0o600)
      const secret = readFileSync(file, "utf8")
      assert.strictEqual(yield* Effect.flatMap(build, (v) => v.open(sealed)), "token")
      assert.strictEqual(readFileSync(file, "utf8"), secret)
    })
  )
})
