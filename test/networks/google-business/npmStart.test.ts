import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeGoogleBusiness, startFakeGoogleBusiness } from "./fakeGoogleBusiness.ts"

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with Google Business
 * Profile's variables pointing at the local Google: the person's three locations connect through the
 * browser flow, an event post with an image (Google fetching it from Herald's signed link) and a button
 * goes out and comes down again; a token that ended early is renewed and the post sent once more; a
 * bad googleBusiness object is validation_failed; a revoked grant (invalid_grant) leaves the location
 * needing reconnection. No token Google issued is on disk in clear.
 */
describe("npm start with Google Business Profile configured", () => {
  let fake: FakeGoogleBusiness
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeGoogleBusiness()
    herald = await startEmbedded({
      GOOGLE_BUSINESS_CLIENT_ID: fake.clientId,
      GOOGLE_BUSINESS_CLIENT_SECRET: fake.clientSecret,
      GOOGLE_BUSINESS_AUTHORIZE_URL: fake.authorizeUrl,
      GOOGLE_BUSINESS_TOKEN_URL: fake.tokenUrl,
      GOOGLE_BUSINESS_ACCOUNTS_URL: fake.origin,
      GOOGLE_BUSINESS_LOCATIONS_URL: fake.origin,
      GOOGLE_BUSINESS_POSTS_URL: fake.origin
    })
  }, 90_000)
  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects every location, posts an event with its image, renews an ended token, takes a post down, and ends in needs_reconnection when Google revokes the grant", async () => {
    const { api, auth } = herald
    const accounts = await herald.connect("google_business")
    expect(accounts.map((a) => [a.platform, a.name, a.username, a.status])).toEqual([
      ["google_business", "Alice's Bakery", "12 Rue des Fleurs, Paris", "connected"],
      ["google_business", "Alice's Bakery Lyon", "Alice's Bakery Lyon", "connected"],
      ["google_business", "Alice's Bakery Nice", "3 Promenade, Nice", "connected"]
    ])
    const paris = accounts[0]!
    const done = (p: any) => p.status === "published" || p.status === "failed"

    const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c84" } })
      .jpeg()
      .toBuffer()
    const image = await herald.upload(bytes, "image/jpeg", "loaves.jpg")
    const googleBusiness = {
      topicType: "EVENT",
      event: {
        title: "Bread workshop",
        startDate: "2026-12-05",
        startTime: "09:30",
        endDate: "2026-12-05",
        endTime: "12:00"
      },
      callToAction: { actionType: "BOOK", url: "https://alices.bakery/workshop" }
    }
    const posted = await herald.post({
      accountIds: [paris.id],
      content: "Learn to bake with us",
      mediaIds: [image],
      googleBusiness
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    const event = await herald.until(posted.body.post.id, done)
    expect(event.status, `${JSON.stringify(event)}\n${herald.log()}`).toBe("published")
    const made = fake.posts.get(event.targets[0].externalId)!
    expect(made.body).toMatchObject({
      summary: "Learn to bake with us",
      topicType: "EVENT",
      callToAction: { actionType: "BOOK", url: "https://alices.bakery/workshop" },
      event: { title: "Bread workshop", schedule: { startTime: { hours: 9, minutes: 30 } } }
    })
    expect(made.body.media[0].sourceUrl).toMatch(new RegExp(`^${herald.origin}/files/.+\\?expires=\\d+&signature=`))
    expect(made.imageSha256).toBe(createHash("sha256").update(bytes).digest("hex"))
    expect(event.targets[0].url).toBe(
      `https://local.google.com/place?id=9001&use=posts&lpsid=${made.name.split("/").pop()}`
    )

    // The dry run: Google's review, the event's local time, and an image link Google cannot reach (loopback).
    const dry = await herald.post({
      accountIds: [paris.id],
      content: "Checking",
      mediaIds: [image],
      googleBusiness,
      dryRun: true
    })
    expect(dry.status, JSON.stringify(dry.body)).toBe(200)
    const said = JSON.stringify(dry.body)
    expect(said).toContain("Google reviews every Business Profile post")
    expect(said).toContain("the location's own local time")
    expect(said).toContain("Google Business Profile download media from Herald by URL")
    // The rules table: one image, 1,500 characters.
    const two = await herald.post({
      accountIds: [paris.id],
      content: "Two",
      mediaIds: [image, await herald.png("#363")]
    })
    expect(two.status).toBe(400)
    const long = await herald.post({ accountIds: [paris.id], content: "x".repeat(1501) })
    expect(long.body.error, JSON.stringify(long.body)).toMatchObject({ code: "validation_failed" })
    // A bad googleBusiness object never reaches Google.
    const bad = await herald.post({ accountIds: [paris.id], content: "x", googleBusiness: { topicType: "OFFER" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["googleBusiness.event"] } })

    // Google ends the access token early: one 401, a refresh grant, the same post sent once more.
    fake.expireAccess("g-alice")
    const refreshes = fake.calls("POST", "/token").filter((r) => (r.body as any).grant_type === "refresh_token").length
    const again = await herald.post({ accountIds: [paris.id], content: "Open on Sunday too" })
    const renewed = await herald.until(again.body.post.id, done)
    expect(renewed.status, herald.log()).toBe("published")
    expect(fake.calls("POST", "/token").filter((r) => (r.body as any).grant_type === "refresh_token").length).toBe(
      refreshes + 1
    )
    expect([...fake.posts.values()].filter((p) => p.body.summary === "Open on Sunday too")).toHaveLength(1)

    const down = await fetch(`${api}/posts/${event.id}/targets/${paris.id}`, { method: "DELETE", headers: auth })
    expect(down.status, await down.clone().text()).toBe(202)
    for (let i = 0; i < 100 && fake.posts.has(made.name); i++) await new Promise((r) => setTimeout(r, 100))
    expect(fake.posts.has(made.name)).toBe(false)

    // The person removes Herald's access: the refresh is refused (invalid_grant) and the location needs reconnecting.
    fake.revoke("g-alice")
    const revoked = await herald.post({ accountIds: [paris.id], content: "After the revocation" })
    const failed = await herald.until(revoked.body.post.id, done)
    expect(failed.targets[0].error, herald.log()).toMatchObject({
      code: "account_needs_reconnection",
      retryable: false
    })
    const listed = ((await (await fetch(`${api}/accounts`, { headers: auth })).json()) as any).accounts
    expect(listed.find((a: any) => a.id === paris.id).status).toBe("needs_reconnection")

    await herald.stop()
    const files = filesUnder(herald.dataDir)
    for (const file of files) {
      const onDisk = readFileSync(file)
      for (const t of fake.issuedTokens()) expect(onDisk.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
    // The check can see a value: the database files hold the location's name in clear.
    expect(files.some((f) => readFileSync(f).includes("Alice's Bakery Lyon"))).toBe(true)
  }, 120_000)
})
