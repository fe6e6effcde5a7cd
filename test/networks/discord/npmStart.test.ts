import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { continueConnectLink } from "../../support/connectLink.ts"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeDiscord, startFakeDiscord } from "./fakeDiscord.ts"

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with nothing set for
 * Discord but DISCORD_API_URL (the stand-in, on loopback, with HERALD_ALLOW_LOOPBACK): Discord is
 * offered by default, a channel connects by its webhook URL on Herald's form, a post and its thread go
 * out; afterwards the webhook's token is nowhere under $HERALD_DATA_DIR in clear.
 */
describe("npm start with Discord", () => {
  let fake: FakeDiscord
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeDiscord()
    herald = await startEmbedded({ HERALD_ALLOW_LOOPBACK: "true", DISCORD_API_URL: fake.apiUrl })
  }, 90_000)

  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects a channel by its webhook URL, publishes a post and its thread, and keeps the URL sealed on disk", async () => {
    const { origin, api, auth } = herald
    const hook = fake.addWebhook({ name: "Release notes" })
    const link = (await (await fetch(`${api}/connect/discord`, { headers: auth })).json()) as any
    const continued = await continueConnectLink(link.url)
    expect(new URL(continued.next).pathname).toBe("/connect/discord/form")
    const sent = await fetch(`${origin}/connect/discord/callback`, {
      method: "POST",
      headers: {
        origin,
        cookie: continued.cookie,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded"
      },
      body: new URLSearchParams({ state: new URL(continued.next).searchParams.get("state")!, webhookUrl: hook.url })
    })
    const { account } = (await sent.json()) as any
    expect(account).toMatchObject({ platform: "discord", name: "Release notes", status: "connected" })

    const posted = await herald.post({
      accountIds: [account.id],
      content: "From npm start",
      thread: ["And a follow-up"]
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    const post = await herald.until(posted.body.post.id, (p) => p.status === "published")
    expect(post?.status, herald.log()).toBe("published")
    const mine = [...fake.state.messages.values()].filter((m) => m.webhookId === hook.id)
    expect(mine.map((m) => m.content)).toEqual(["From npm start", "And a follow-up"])

    await herald.stop()
    const files = filesUnder(herald.dataDir)
    for (const file of files)
      expect(readFileSync(file).includes(hook.token), `the webhook token in clear in ${file}`).toBe(false)
    // The check can see a value: the database files hold the channel's name in clear.
    expect(files.some((f) => readFileSync(f).includes("Release notes"))).toBe(true)
  }, 90_000)
})
