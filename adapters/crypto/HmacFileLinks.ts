import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto"
import { Effect, Layer } from "effect"
import { type FileLinkCheck, FileLinks, type FileLinksShape } from "../../application/ports/FileLinks.ts"
import { heraldSecret } from "./secret.ts"

/** Its own key from Herald's secret (HKDF-SHA256), apart from the vault's. */
const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "herald", "herald file links v1", 32))

const signatureOf = (key: Buffer, blobKey: string, expiresSeconds: number) =>
  createHmac("sha256", key).update(`${blobKey}\n${expiresSeconds}`).digest()

/**
 * `/files/<key>?expires=<epoch seconds>&signature=<HMAC-SHA256 over key and expiry, base64url>`.
 * Signed with the current secret; links signed with a previous one (HERALD_SECRET_PREVIOUS) still
 * open until they expire.
 */
export const make = (secret: string, previous: ReadonlyArray<string> = []): FileLinksShape => {
  const current = keyOf(secret)
  const keys = [current, ...previous.map(keyOf)]
  return {
    sign: (blobKey, expiresAtMs) => {
      const expires = Math.ceil(expiresAtMs / 1000)
      return `expires=${expires}&signature=${signatureOf(current, blobKey, expires).toString("base64url")}`
    },
    check: (blobKey, expires, signature, nowMs): FileLinkCheck => {
      if (
        expires === null ||
        signature === null ||
        !/^\d{1,12}$/.test(expires) ||
        !/^[A-Za-z0-9_-]{43}$/.test(signature)
      )
        return "invalid"
      const given = Buffer.from(signature, "base64url")
      const signed = keys.some((key) => timingSafeEqual(signatureOf(key, blobKey, Number(expires)), given))
      if (!signed) return "invalid"
      return Number(expires) * 1000 <= nowMs ? "expired" : "valid"
    }
  }
}

/** File links on Herald's secret (HERALD_SECRET, or the one kept in `secretFile`). */
export const layerConfig = (secretFile: string) =>
  Layer.effect(FileLinks)(Effect.map(heraldSecret(secretFile), ({ current, previous }) => make(current, previous)))

/** File links with a fixed secret (tests, the in-memory host). */
export const layer = (secret: string) => Layer.succeed(FileLinks)(make(secret))
