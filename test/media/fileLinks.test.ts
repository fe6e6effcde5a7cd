import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import sharp from "sharp"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { FileLinks } from "../../application/ports/FileLinks.ts"
import { claim, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

/**
 * Herald's own /files/ links (local and memory storage): signed with a key derived from
 * HERALD_SECRET and expiring, so a network can fetch an upload by URL while nobody can guess one
 * or keep using it after it ends.
 */
describe("signed, expiring file links", () => {
  let host: HttpHost
  let key = ""
  let url = ""
  beforeAll(async () => {
    host = await startHttpHost()
    const { email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    key = (
      await call(host, "POST", "/keys", {
        cookie,
        headers: { "x-csrf-token": csrf },
        body: { name: "files", requireApproval: false }
      })
    ).body.apiKey
    const form = new FormData()
    form.append(
      "file",
      new Blob(
        [
          await sharp({ create: { width: 40, height: 30, channels: 3, background: "#357" } })
            .png()
            .toBuffer()
        ],
        { type: "image/png" }
      ),
      "a.png"
    )
    const uploaded = await fetch(`${host.base}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    url = host.local(((await uploaded.json()) as any).media.url)
  }, 60_000)
  afterAll(() => host?.close())

  it("the media url opens; it carries an expiry 7 days ahead and a signature", async () => {
    const parsed = new URL(url)
    const expires = Number(parsed.searchParams.get("expires"))
    expect(expires * 1000 - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000)
    expect(parsed.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("image/png")
  })

  it("without its signature, with another key's, or with a changed expiry: 403 file_link_invalid", async () => {
    const parsed = new URL(url)
    const bare = `${parsed.origin}${parsed.pathname}`
    const otherKey = `${parsed.origin}${parsed.pathname.replace(/\.png$/, ".jpg")}${parsed.search}`
    const longer = new URL(url)
    longer.searchParams.set("expires", String(Number(longer.searchParams.get("expires")) + 86_400))
    for (const forged of [
      bare,
      otherKey,
      longer.toString(),
      `${bare}?expires=99999999999&signature=${"A".repeat(43)}`
    ]) {
      const response = await fetch(forged)
      expect(response.status, forged).toBe(403)
      expect(((await response.json()) as any).error.code).toBe("file_link_invalid")
    }
  })

  it("a link past its expiry: 410 file_link_expired; one asked for an hour opens now", async () => {
    const blobKey = decodeURIComponent(new URL(url).pathname.slice("/files/".length))
    const expired = await host.run(Effect.map(FileLinks, (links) => links.sign(blobKey, Date.now() - 1000)))
    const response = await fetch(`${new URL(url).origin}/files/${blobKey}?${expired}`)
    expect(response.status).toBe(410)
    expect(((await response.json()) as any).error.code).toBe("file_link_expired")
    const hour = host.local(await host.run(Effect.flatMap(BlobStore, (blobs) => blobs.url(blobKey, 3_600_000))))
    expect(Number(new URL(hour).searchParams.get("expires")) * 1000 - Date.now()).toBeLessThanOrEqual(3_600_000 + 1000)
    expect((await fetch(hour)).status).toBe(200)
  })

  it("another secret's links are refused; a previous secret's still open while it rotates", () => {
    const old = HmacFileLinks.make("old secret")
    const link = new URLSearchParams(old.sign("media/k/a.png", 2_000_000_000_000))
    const check = (links: ReturnType<typeof HmacFileLinks.make>) =>
      links.check("media/k/a.png", link.get("expires"), link.get("signature"), 1_900_000_000_000)
    expect(check(old)).toBe("valid")
    expect(check(HmacFileLinks.make("new secret"))).toBe("invalid")
    expect(check(HmacFileLinks.make("new secret", ["old secret"]))).toBe("valid")
  })
})
