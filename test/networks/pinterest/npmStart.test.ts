import { readFileSync } from "node:fs"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"

/**
 * `npm start` with Pinterest's variables pointing at the fake Pinterest: the account connects through
 * the browser flow, its boards are listed with GET /accounts/{id}/boards, and a pin goes to the board
 * chosen from that list (and a carousel to the account's first board).
 */
describe("npm start with Pinterest configured", () => {
  let fake: FakePinterest
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakePinterest()
    herald = await startEmbedded({
      PINTEREST_CLIENT_ID: fake.clientId,
      PINTEREST_CLIENT_SECRET: fake.clientSecret,
      PINTEREST_AUTHORIZE_URL: fake.authorizeUrl,
      PINTEREST_TOKEN_URL: fake.tokenUrl,
      PINTEREST_API_URL: fake.origin
    })
  }, 90_000)
  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects, lists the boards, pins to the chosen board, and keeps every token sealed", async () => {
    const [account] = await herald.connect("pinterest")
    expect(account).toMatchObject({ platform: "pinterest", username: "alicepins", name: "Alice's Kitchen" })
    const listed = await fetch(`${herald.api}/accounts/${account.id}/boards`, { headers: herald.auth })
    expect(listed.status).toBe(200)
    const { boards } = (await listed.json()) as { boards: Array<{ id: string; name: string }> }
    expect(boards.map((b) => b.name)).toEqual(["Recipes", "Kitchen ideas", "Drafts"])
    const chosen = boards.find((b) => b.name === "Kitchen ideas")!

    const image = await herald.upload(
      await sharp({ create: { width: 600, height: 900, channels: 3, background: "#eb3" } })
        .jpeg()
        .toBuffer(),
      "image/jpeg",
      "tart.jpg"
    )
    const pin = await herald.post({
      accountIds: [account.id],
      content: "Lemon tart, the easy way",
      mediaIds: [image],
      pinterest: { boardId: chosen.id, title: "Lemon tart", link: "https://alices.kitchen/tart" }
    })
    expect(pin.status, JSON.stringify(pin.body)).toBe(201)
    const carousel = await herald.post({
      accountIds: [account.id],
      content: "Three steps",
      mediaIds: [await herald.png("#a11"), await herald.png("#1a1"), await herald.png("#11a")]
    })
    expect(carousel.status, JSON.stringify(carousel.body)).toBe(201)

    const pinned = await herald.until(pin.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(pinned.status, `${JSON.stringify(pinned)}\n${herald.log()}`).toBe("published")
    const made = fake.pins.find((p) => p.id === pinned.targets[0].externalId)!
    expect(made).toMatchObject({
      boardId: chosen.id,
      title: "Lemon tart",
      description: "Lemon tart, the easy way",
      link: "https://alices.kitchen/tart"
    })
    expect(pinned.targets[0].url).toBe(`https://www.pinterest.com/pin/${made.id}/`)
    const three = await herald.until(carousel.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(three.status, JSON.stringify(three)).toBe("published")
    expect(fake.pins.find((p) => p.id === three.targets[0].externalId)).toMatchObject({
      boardId: boards[0].id,
      source: "multiple_image_base64"
    })

    await herald.stop()
    for (const file of filesUnder(herald.dataDir)) {
      const bytes = readFileSync(file)
      for (const t of fake.issuedTokens()) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
  }, 120_000)
})
