import { createHash, randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { Crypto, type CryptoShape } from "../../application/ports/Crypto.ts"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

const toBase62 = (bytes: Uint8Array): string => {
  let n = BigInt("0x" + Buffer.from(bytes).toString("hex"))
  let out = ""
  while (n > 0n) {
    out = base62[Number(n % 62n)] + out
    n /= 62n
  }
  return out.padStart(43, "0")
}

let lastTime = 0
let lastRandom: Uint8Array = new Uint8Array(10)

/** ULID: 48-bit time + 80 random bits, monotonic within one millisecond, so ids sort by creation. */
export const ulid = (now: number): string => {
  let random: Uint8Array
  if (now <= lastTime) {
    random = new Uint8Array(lastRandom)
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i] < 255) {
        random[i]++
        break
      }
      random[i] = 0
    }
    now = lastTime
  } else random = new Uint8Array(randomBytes(10))
  lastTime = now
  lastRandom = random
  let time = ""
  let t = now
  for (let i = 0; i < 10; i++) {
    time = crockford[t % 32] + time
    t = Math.floor(t / 32)
  }
  let bits = 0n
  for (const b of random) bits = (bits << 8n) | BigInt(b)
  let rand = ""
  for (let i = 0; i < 16; i++) {
    rand = crockford[Number(bits & 31n)] + rand
    bits >>= 5n
  }
  return time + rand
}

/** Ids take their time from Date.now (not the Clock) so they sort across processes and test runs alike. */
export const make: CryptoShape = {
  id: (prefix) => Effect.sync(() => `${prefix}_${ulid(Date.now())}`),
  token: () => Effect.sync(() => toBase62(randomBytes(32))),
  sha256: (text) => Effect.sync(() => createHash("sha256").update(text).digest("hex"))
}

export const layer = Layer.succeed(Crypto)(make)
