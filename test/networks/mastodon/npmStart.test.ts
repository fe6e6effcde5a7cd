import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { continueConnectLink } from "../../support/connectLink.ts"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeMastodon, startFakeMastodon } from "./fakeMastodon.ts"

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with nothing set for
 * Mastodon but HERALD_ALLOW_LOOPBACK (the instance stand-in is on loopback): an account connects on the
 * instance the connect request names, a post with an image and a thread goes out; afterwards no token
 * the instance issued is anywhere under $HERALD_DATA_DIR in clear, and Herald's registration is kept.
 */
describe("npm start with a Mastodon instance", () => {
  let fake: FakeMastodon
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeMastodon()
    herald = await startEmbedded({ HERALD_ALLOW_LOOPBACK: "true" })
  }, 90_000)

  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects on the named instance, publishes an image and a thread, and keeps every token sealed on disk", async () => {
    const { api, auth } = herald
    const instance = encodeURIComponent(fake.origin)
    const link = (await (await fetch(`${api}/connect/mastodon?instance=${instance}`, { headers: auth })).json()) as any
    const continued = await continueConnectLink(link.url)
    const atInstance = await fetch(continued.next, { redirect: "manual" })
    const back = await fetch(atInstance.headers.get("location")!, {
      headers: { accept: "application/json", cookie: continued.cookie }
    })
    const { account } = (await back.json()) as any
    expect(account).toMatchObject({ platform: "mastodon", username: `alice@${fake.host}`, status: "connected" })
    expect(fake.apps).toHaveLength(1)

    const posted = await herald.post({
      accountIds: [account.id],
      content: "From npm start",
      mediaIds: [await herald.png("#228844")],
      thread: ["And a reply"]
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    const post = await herald.until(posted.body.post.id, (p) => p.status === "published")
    expect(post?.status, herald.log()).toBe("published")
    const [root, reply] = fake.statuses.slice(-2)
    expect(root).toMatchObject({ text: "From npm start", mediaIds: [expect.any(String)], visibility: "public" })
    expect(reply).toMatchObject({ text: "And a reply", inReplyToId: root!.id })
    expect(post.targets[0].url).toBe(`${fake.origin}/@alice/${root!.id}`)

    await herald.stop()
    const tokens = fake.issuedTokens()
    expect(tokens.length).toBeGreaterThan(0)
    const files = filesUnder(herald.dataDir)
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const t of tokens) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
    // The check can see a token: the database files hold the account's profile in clear, and the registration.
    expect(files.some((f) => readFileSync(f).includes("Alice Example"))).toBe(true)
    expect(files.some((f) => readFileSync(f).includes(fake.apps[0]!.clientId))).toBe(true)
  }, 90_000)
})
