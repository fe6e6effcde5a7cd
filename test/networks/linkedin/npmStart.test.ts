import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeLinkedIn, startFakeLinkedIn } from "./fakeLinkedIn.ts"

/**
 * `npm start` with LinkedIn's variables pointing at the fake LinkedIn: the member and the page connect
 * through the browser flow; a poll and a post with two images and a first comment go out; no token
 * LinkedIn issued is anywhere under $HERALD_DATA_DIR in clear.
 */
describe("npm start with LinkedIn configured", () => {
  let fake: FakeLinkedIn
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeLinkedIn()
    herald = await startEmbedded({
      LINKEDIN_CLIENT_ID: fake.clientId,
      LINKEDIN_CLIENT_SECRET: fake.clientSecret,
      LINKEDIN_AUTHORIZE_URL: fake.authorizeUrl,
      LINKEDIN_TOKEN_URL: fake.tokenUrl,
      LINKEDIN_API_URL: fake.origin,
      HERALD_FIRST_COMMENT_DELAY_MS: "500"
    })
  }, 90_000)
  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects, publishes a poll and two images with a first comment, and keeps every token sealed on disk", async () => {
    const [member, page] = await herald.connect("linkedin")
    expect([member, page].map((a) => a.name)).toEqual(["Alice Example", "Herald Example Corp"])

    const poll = await herald.post({
      accountIds: [page.id],
      content: "Where should we meet?",
      poll: { question: "Pick a city", options: ["Berlin", "Lisbon", "Oslo"], durationMinutes: 4320 }
    })
    expect(poll.status, JSON.stringify(poll.body)).toBe(201)
    const images = [await herald.png("#284"), await herald.png("#842")]
    const pictures = await herald.post({
      accountIds: [member.id],
      content: "Two views of the harbour #travel",
      mediaIds: images,
      firstComment: "Shot on a phone (no filter)"
    })
    expect(pictures.status, JSON.stringify(pictures.body)).toBe(201)

    const pollDone = await herald.until(poll.body.post.id, (p) => p.status === "published")
    expect(pollDone.status, herald.log()).toBe("published")
    const picturesDone = await herald.until(
      pictures.body.post.id,
      (p) => p.targets[0].firstComment?.status === "published"
    )
    expect(picturesDone.targets[0].firstComment?.status, herald.log()).toBe("published")

    const pollPost = fake.posts.find((p) => p.urn === pollDone.targets[0].externalId)!
    expect(pollPost.content.poll).toEqual({
      question: "Pick a city",
      options: [{ text: "Berlin" }, { text: "Lisbon" }, { text: "Oslo" }],
      settings: { duration: "THREE_DAYS" }
    })
    expect(pollPost.author).toBe("urn:li:organization:2414183")
    const picturesPost = fake.posts.find((p) => p.urn === picturesDone.targets[0].externalId)!
    expect(picturesPost).toMatchObject({
      author: "urn:li:person:m-alice",
      rendered: "Two views of the harbour #travel",
      hashtags: ["travel"]
    })
    expect(picturesPost.content.multiImage.images.map((i: any) => fake.images.get(i.id)?.bytes)).toEqual([
      expect.any(Number),
      expect.any(Number)
    ])
    expect(fake.comments.at(-1)).toMatchObject({ post: picturesPost.urn, text: "Shot on a phone (no filter)" })

    await herald.stop()
    const tokens = fake.issuedTokens()
    expect(tokens.length).toBeGreaterThan(0)
    const files = filesUnder(herald.dataDir)
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const t of tokens) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
    expect(files.some((f) => readFileSync(f).includes("Herald Example Corp"))).toBe(true)
  }, 90_000)
})
