import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes
} from "node:crypto"
import { Effect, Layer } from "effect"
import { TokenVault, type TokenVaultShape, VaultSealBroken } from "../../application/ports/TokenVault.ts"
import { heraldSecret } from "./secret.ts"

interface Key {
  readonly id: string
  // A KeyObject made once: given raw bytes, every cipher would build one again (a third of a delivery's crypto time).
  readonly bytes: KeyObject
}

const keyOf = (secret: string): Key => {
  const bytes = Buffer.from(hkdfSync("sha256", secret, "herald", "herald token vault v1", 32))
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes: createSecretKey(bytes) }
}

const b64 = (b: Buffer) => b.toString("base64url")

/**
 * AES-256-GCM under a key derived from the secret (HKDF-SHA256). A sealed text is
 * `v1.<key id>.<iv>.<ciphertext>.<tag>`: the key id lets `previous` secrets open what they sealed,
 * while everything new is sealed with the current one.
 */
export const make = (secret: string, previous: ReadonlyArray<string> = []): TokenVaultShape => {
  const current = keyOf(secret)
  const keys = new Map([current, ...previous.map(keyOf)].map((k) => [k.id, k]))
  return {
    seal: (plain) =>
      Effect.sync(() => {
        const iv = randomBytes(12)
        const cipher = createCipheriv("aes-256-gcm", current.bytes, iv)
        const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
        return ["v1", current.id, b64(iv), b64(body), b64(cipher.getAuthTag())].join(".")
      }),
    open: (sealed) =>
      Effect.suspend(() => {
        const [version, id, iv, body, tag] = sealed.split(".")
        const key = id === undefined ? undefined : keys.get(id)
        if (version !== "v1" || key === undefined || iv === undefined || body === undefined || tag === undefined)
          return Effect.fail(
            new VaultSealBroken({ message: "Sealed with a secret this server does not have (HERALD_SECRET changed?)." })
          )
        try {
          const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"))
          decipher.setAuthTag(Buffer.from(tag, "base64url"))
          return Effect.succeed(
            Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
          )
        } catch {
          return Effect.fail(new VaultSealBroken({ message: "The sealed credentials are damaged." }))
        }
      })
  }
}

/** The vault on Herald's secret (HERALD_SECRET, or the one kept in `secretFile`; see secret.ts). */
export const layerConfig = (secretFile: string) =>
  Layer.effect(TokenVault)(Effect.map(heraldSecret(secretFile), ({ current, previous }) => make(current, previous)))

/** A vault with a fixed secret (tests, the in-memory host). */
export const layer = (secret: string) => Layer.succeed(TokenVault)(make(secret))
