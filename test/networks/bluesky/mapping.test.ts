import { createServer } from "node:http"
import { XRPCError } from "@atproto/api"
import { describe, expect, it } from "vitest"
import { isStillProcessing } from "../../../adapters/networks/bluesky/BlueskyPublisher.ts"
import { connectErrorOf, failureOf, publishErrorOf, renewalErrorOf } from "../../../adapters/networks/bluesky/errors.ts"
import { fitImage } from "../../../adapters/networks/bluesky/images.ts"
import { fetchLimited, isPrivateAddress, parseCard } from "../../../adapters/networks/bluesky/linkCard.ts"
import { makeRateGate } from "../../../adapters/networks/bluesky/rateGate.ts"
import sharp from "sharp"

const xrpc = (status: number, error: string, message: string, headers: Record<string, string> = {}) =>
  failureOf(new XRPCError(status, error, message, headers))

describe("Bluesky's answers, mapped once", () => {
  it("a publish: refused session -> renew, rate limit -> wait for the reset, bad record -> refused with Bluesky's words, 5xx -> retry", () => {
    const expired = publishErrorOf(xrpc(400, "ExpiredToken", "Token has expired"))
    expect([expired.reason._tag, expired.retryable]).toEqual(["Unauthorized", false])
    expect(publishErrorOf(xrpc(401, "AuthenticationRequired", "Authentication Required")).reason._tag).toBe(
      "Unauthorized"
    )
    expect(publishErrorOf(xrpc(400, "InvalidToken", "Bad token")).reason._tag).toBe("Unauthorized")
    expect(publishErrorOf(xrpc(400, "AccountTakedown", "Account has been taken down")).reason._tag).toBe("Revoked")

    const reset = Math.ceil(Date.now() / 1000) + 120
    const limited = publishErrorOf(
      xrpc(429, "RateLimitExceeded", "Rate Limit Exceeded", { "ratelimit-reset": String(reset) })
    )
    expect([limited.code, limited.reason._tag, limited.retryable]).toEqual(["rate_limited", "RateLimited", true])
    expect(limited.retryAfterMs).toBeGreaterThan(118_000)
    expect(limited.retryAfterMs).toBeLessThanOrEqual(121_000)

    const invalid = publishErrorOf(
      xrpc(400, "InvalidRequest", "Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301)")
    )
    expect([invalid.code, invalid.retryable]).toEqual(["upstream_rejected", false])
    expect(invalid.message).toBe(
      "Bluesky says: Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301)"
    )

    for (const status of [500, 502, 503, 504])
      expect(publishErrorOf(xrpc(status, "InternalServerError", "Internal Server Error"))).toMatchObject({
        code: "upstream_unavailable",
        retryable: true
      })
    expect(publishErrorOf(failureOf(new TypeError("fetch failed")))).toMatchObject({
      code: "upstream_unavailable",
      retryable: true
    })
  })

  it("a video still being processed is told apart from a refusal", () => {
    expect(isStillProcessing(xrpc(400, "BlobProcessing", "The video is still processing"))).toBe(true)
    expect(isStillProcessing(xrpc(400, "InvalidRequest", "Invalid app.bsky.feed.post record"))).toBe(false)
    expect(isStillProcessing(xrpc(503, "Processing", "busy"))).toBe(false)
  })

  it("a log-in from the form names the field to fix; a renewal refused means reconnect, anything else is passing", () => {
    const wrong = connectErrorOf(xrpc(401, "AuthenticationRequired", "Invalid identifier or password"))
    expect(wrong.code).toBe("validation_failed")
    expect(wrong.details).toEqual({ fields: ["appPassword"] })
    expect(connectErrorOf(xrpc(429, "RateLimitExceeded", "Too many", { "retry-after": "60" }))).toMatchObject({
      code: "rate_limited",
      details: { retryAfterSeconds: 60 }
    })
    expect(connectErrorOf(failureOf(new Error("getaddrinfo ENOTFOUND"))).code).toBe("upstream_unavailable")

    expect(renewalErrorOf(xrpc(401, "AuthenticationRequired", "Invalid identifier or password"))._tag).toBe(
      "GrantRevoked"
    )
    expect(renewalErrorOf(xrpc(502, "UpstreamFailure", "Bad gateway"))._tag).toBe("NetworkUnavailable")
    expect(renewalErrorOf(xrpc(429, "RateLimitExceeded", "Too many", { "retry-after": "30" }))).toMatchObject({
      _tag: "NetworkUnavailable",
      retryAfterMs: 30_000
    })
  })

  it("the rate gate holds an account until its reset, and no other", () => {
    const gate = makeRateGate()
    gate.closeUntil("did:plc:a", 10_000)
    expect(gate.waitFor("did:plc:a", 4_000)).toBe(6_000)
    expect(gate.waitFor("did:plc:b", 4_000)).toBe(0)
    expect(gate.waitFor("did:plc:a", 10_000)).toBe(0)
  })
})

describe("link cards", () => {
  it("reads OpenGraph first, then the title and description tags; a relative image becomes absolute", () => {
    const card = parseCard(
      `<head><title>Plain &amp; simple</title><meta content="About it" name="description">
<meta property="og:image" content='/pic.jpg'></head>`,
      "https://example.org/a/b"
    )
    expect(card).toEqual({ title: "Plain & simple", description: "About it", imageUrl: "https://example.org/pic.jpg" })
    expect(
      parseCard(
        `<meta property="og:title" content="OG &#8211; title"><title>Other</title><meta property="og:image" content="javascript:alert(1)">`,
        "https://x.org"
      )
    ).toEqual({ title: "OG – title", description: "", imageUrl: null })
    expect(parseCard("<p>no title</p>", "https://x.org")).toBeNull()
  })

  it("never reads loopback, private or link-local addresses unless allowed", async () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "0.0.0.0"
    ])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
      expect(isPrivateAddress(address), address).toBe(false)

    const server = createServer((_, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<title>Internal</title>")
    )
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as { port: number }).port
    const limits = { timeoutMs: 2000, maxBytes: 1000, accept: /^text\/html/, truncate: true }
    try {
      expect(await fetchLimited(`http://127.0.0.1:${port}/`, { ...limits, allowPrivate: false })).toBeNull()
      expect(await fetchLimited(`http://localhost:${port}/`, { ...limits, allowPrivate: false })).toBeNull()
      expect(
        (await fetchLimited(`http://127.0.0.1:${port}/`, { ...limits, allowPrivate: true }))?.body.toString()
      ).toBe("<title>Internal</title>")
      expect(await fetchLimited(`file:///etc/passwd`, { ...limits, allowPrivate: true })).toBeNull()
    } finally {
      server.close()
    }
  })
})

describe("images for Bluesky", () => {
  it("keep a small PNG as PNG, turn pictures upright and drop their metadata", async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: "#ff000080" } })
      .png()
      .toBuffer()
    expect(await fitImage(png)).toMatchObject({ mimeType: "image/png", width: 300, height: 200 })
    // Stored sideways with EXIF orientation 6 (turn 90°) and a GPS-bearing EXIF block.
    const sideways = await sharp({ create: { width: 400, height: 100, channels: 3, background: "#00ff00" } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 0/1" } })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    expect((await sharp(sideways).metadata()).orientation).toBe(6)
    expect((await sharp(sideways).metadata()).exif).toBeDefined()
    const fitted = await fitImage(sideways)
    expect([fitted.width, fitted.height]).toEqual([100, 400])
    const meta = await sharp(fitted.bytes).metadata()
    expect(meta.exif).toBeUndefined()
  })
})
