import { hash, randomBytes } from "node:crypto"
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

// Random bytes drawn 4 KiB at a time: one call into the CSPRNG per ~400 ids instead of one per id.
const POOL_BYTES = 4096
let pool: Buffer = Buffer.alloc(0)
let pooled = 0
const randomTen = (): Uint8Array => {
  if (pooled + 10 > pool.length) {
    pool = randomBytes(POOL_BYTES)
    pooled = 0
  }
  pooled += 10
  return Uint8Array.from(pool.subarray(pooled - 10, pooled))
}

/** `count` Crockford base-32 characters of `value` (an integer below 2^53), most significant first. */
const base32 = (value: number, count: number): string => {
  let out = ""
  for (let i = 0; i < count; i++) {
    out = crockford[value % 32] + out
    value = Math.floor(value / 32)
  }
  return out
}

/** Five bytes as one 40-bit number (exact in a double). */
const forty = (b: Uint8Array, at: number): number =>
  b[at]! * 2 ** 32 + (((b[at + 1]! << 24) | (b[at + 2]! << 16) | (b[at + 3]! << 8) | b[at + 4]!) >>> 0)

/** ULID: 48-bit time + 80 random bits, monotonic within one millisecond, so ids sort by creation. */
export const ulid = (now: number): string => {
  let random: Uint8Array
  if (now <= lastTime) {
    random = new Uint8Array(lastRandom)
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i]! < 255) {
        random[i] = random[i]! + 1
        break
      }
      random[i] = 0
    }
    now = lastTime
  } else random = randomTen()
  lastTime = now
  lastRandom = random
  // 80 random bits are 16 characters: the high 40 bits give the first 8, the low 40 the last 8.
  return base32(now, 10) + base32(forty(random, 0), 8) + base32(forty(random, 5), 8)
}

/** Ids take their time from Date.now (not the Clock) so they sort across processes and test runs alike. */
export const make: CryptoShape = {
  id: (prefix) => Effect.sync(() => `${prefix}_${ulid(Date.now())}`),
  token: () => Effect.sync(() => toBase62(randomBytes(32))),
  // One-shot hash: a third of createHash()'s cost, and an API key is hashed on every request.
  sha256: (text) => Effect.sync(() => hash("sha256", text, "hex"))
}

export const layer = Layer.succeed(Crypto)(make)
