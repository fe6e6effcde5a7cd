import { describe, expect, it } from "vitest"
import { ulid } from "../../adapters/crypto/NodeCrypto.ts"

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** Decodes a ULID's 26 characters back to its 48-bit time and 80 random bits (the spec's layout). */
const decode = (id: string) => {
  let value = 0n
  for (const c of id) value = value * 32n + BigInt(crockford.indexOf(c))
  return { time: Number(value >> 80n), random: value & ((1n << 80n) - 1n) }
}

describe("ulid", () => {
  it("is 26 Crockford characters holding the time it was made", () => {
    const at = Date.now()
    const id = ulid(at + 10_000)
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(decode(id).time).toBe(at + 10_000)
  })

  it("within one millisecond, each id is the previous random part plus one, so ids sort by creation", () => {
    const at = Date.now() + 20_000
    const ids = Array.from({ length: 500 }, () => ulid(at))
    for (let i = 1; i < ids.length; i++) {
      expect(decode(ids[i]!).random).toBe(decode(ids[i - 1]!).random + 1n)
      expect(ids[i]! > ids[i - 1]!).toBe(true)
    }
    // A clock that steps back still gives ids after the last one.
    expect(ulid(at - 5) > ids.at(-1)!).toBe(true)
  })

  it("draws fresh random bits each millisecond: no repeats across many ids, all bits used", () => {
    const start = Date.now() + 30_000
    const randoms = Array.from({ length: 2_000 }, (_, i) => decode(ulid(start + i)).random)
    expect(new Set(randoms).size).toBe(randoms.length)
    const seen = randoms.reduce((acc, r) => acc | r, 0n)
    expect(seen).toBe((1n << 80n) - 1n)
  })
})
