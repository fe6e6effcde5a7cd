import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeReddit, startFakeReddit } from "./fakeReddit.ts"

/**
 * `npm start` with Reddit's variables pointing at the fake Reddit: the account connects through the
 * browser flow; a post without a subreddit is refused with the contract's envelope; a dry run tells
 * what a subreddit's rules would refuse; a text post with a first comment and an image post go out.
 */
describe("npm start with Reddit configured", () => {
  let fake: FakeReddit
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeReddit()
    herald = await startEmbedded({
      REDDIT_CLIENT_ID: fake.clientId,
      REDDIT_CLIENT_SECRET: fake.clientSecret,
      REDDIT_AUTHORIZE_URL: fake.authorizeUrl,
      REDDIT_TOKEN_URL: fake.tokenUrl,
      REDDIT_API_URL: fake.origin,
      REDDIT_USER_AGENT: fake.userAgent
    })
  }, 90_000)
  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects, lists the account's subreddits, refuses a post without a subreddit, advises on a subreddit's rules, posts text with a first comment and an image; a revoked grant needs reconnection", async () => {
    const [account] = await herald.connect("reddit")
    expect(account).toMatchObject({ platform: "reddit", username: "alice_bakes", name: "Alice bakes" })

    const listed = await fetch(`${herald.api}/accounts/${account.id}/boards`, { headers: herald.auth })
    expect(listed.status).toBe(200)
    const { boards } = (await listed.json()) as { boards: Array<{ id: string; name: string }> }
    expect(boards.map((b) => b.id)).toEqual(["HeraldLinks", "HeraldNews", "HeraldTest", "AskHerald"])

    const missing = await herald.post({ accountIds: [account.id], content: "No subreddit" })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["reddit.subreddit"] } })

    const dry = await herald.post({
      accountIds: [account.id],
      content: "Proofing times?",
      reddit: { subreddit: "AskHerald" },
      dryRun: true
    })
    expect(dry.status, JSON.stringify(dry.body)).toBe(200)
    const warnings: Array<string> = dry.body.targets?.[0]?.warnings ?? dry.body.preview?.targets?.[0]?.warnings
    expect(warnings.join(" ")).toContain("Reddit would refuse it in r/AskHerald: r/AskHerald requires a flair")

    const text = await herald.post({
      accountIds: [account.id],
      content: "Sourdough, day three\nThe starter doubled.",
      firstComment: "Recipe: 500 g flour, 350 g water.",
      reddit: { subreddit: "HeraldTest" }
    })
    expect(text.status, JSON.stringify(text.body)).toBe(201)
    const image = await herald.post({
      accountIds: [account.id],
      content: "Crumb shot",
      mediaIds: [await herald.png("#c96")],
      reddit: { subreddit: "r/HeraldTest" }
    })
    expect(image.status, JSON.stringify(image.body)).toBe(201)

    const posted = await herald.until(text.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(posted.status, `${JSON.stringify(posted)}\n${herald.log()}`).toBe("published")
    const made = fake.posts.find((p) => `t3_${p.id}` === posted.targets[0].externalId)!
    expect(made).toMatchObject({
      subreddit: "HeraldTest",
      kind: "self",
      title: "Sourdough, day three",
      text: "The starter doubled."
    })
    const withComment = await herald.until(text.body.post.id, () => fake.comments.length > 0)
    expect(withComment.status).toBe("published")
    expect(fake.comments[0]).toMatchObject({ linkId: `t3_${made.id}`, body: "Recipe: 500 g flour, 350 g water." })

    const pictured = await herald.until(image.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(pictured.status, `${JSON.stringify(pictured)}\n${herald.log()}`).toBe("published")
    expect(fake.posts.find((p) => `t3_${p.id}` === pictured.targets[0].externalId)).toMatchObject({
      kind: "image",
      title: "Crumb shot"
    })
    expect(
      fake.requests.every(
        (r) => r.path === "/api/v1/authorize" || r.path === "/s3" || r.headers["user-agent"] === fake.userAgent
      )
    ).toBe(true)

    // The person removes Herald's app on Reddit: a 401, one refresh refused with invalid_grant, then needs_reconnection.
    fake.revoke("alice")
    const after = await herald.post({
      accountIds: [account.id],
      content: "After the revoke",
      reddit: { subreddit: "HeraldTest" }
    })
    expect(after.status, JSON.stringify(after.body)).toBe(201)
    const revoked = await herald.until(after.body.post.id, (p) => p.status === "failed")
    expect(revoked.targets[0].error).toMatchObject({ code: "account_needs_reconnection", retryable: false })
    const accounts = ((await (await fetch(`${herald.api}/accounts`, { headers: herald.auth })).json()) as any).accounts
    expect(accounts.find((a: any) => a.id === account.id).status).toBe("needs_reconnection")
    expect(fake.calls("POST", "/api/v1/access_token").at(-1)!.body).toMatchObject({ grant_type: "refresh_token" })

    await herald.stop()
    for (const file of filesUnder(herald.dataDir)) {
      const bytes = readFileSync(file)
      for (const t of fake.issuedTokens()) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
  }, 120_000)
})
