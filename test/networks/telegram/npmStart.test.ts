import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { continueConnectLink } from "../../support/connectLink.ts"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeBotApi, startFakeBotApi } from "./fakeBotApi.ts"

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with nothing set for
 * Telegram but TELEGRAM_API_URL (the Bot API stand-in, on loopback: the operator's address, not guarded):
 * a channel connects on Herald's form, a post with an image and a thread goes out; afterwards the bot's
 * token is nowhere under $HERALD_DATA_DIR in clear.
 */
describe("npm start with Telegram", () => {
  let fake: FakeBotApi
  let botToken = ""
  let herald: Awaited<ReturnType<typeof startEmbedded>>

  beforeAll(async () => {
    fake = await startFakeBotApi()
    botToken = fake.addBot(9001, "herald_start_bot")
    fake.join(fake.addChat({ id: -1009001, type: "channel", title: "Start News", username: "start_news" }), botToken)
    // Loopback stays refused for named hosts: the Bot API is the operator's address, called as configured.
    herald = await startEmbedded({
      TELEGRAM_API_URL: fake.origin,
      HERALD_ALLOW_LOOPBACK: "false",
      HERALD_WEBHOOKS_ALLOW_LOOPBACK: "false"
    })
  }, 90_000)

  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects a channel on the form, publishes an image and a thread, and keeps the bot token sealed on disk", async () => {
    const { origin, api, auth } = herald
    const link = (await (await fetch(`${api}/connect/telegram`, { headers: auth })).json()) as any
    const { next, cookie: browser } = await continueConnectLink(link.url)
    const state = new URL(next).searchParams.get("state")!
    const back = await fetch(`${origin}/connect/telegram/callback`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin,
        cookie: browser
      },
      body: new URLSearchParams({ state, botToken, chat: "@start_news" })
    })
    const { account } = (await back.json()) as any
    expect(account).toMatchObject({ platform: "telegram", username: "@start_news", status: "connected" })

    const posted = await herald.post({
      accountIds: [account.id],
      content: "From npm start",
      mediaIds: [await herald.png("#228844")],
      thread: ["And a reply"]
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    const post = await herald.until(posted.body.post.id, (p) => p.status === "published")
    expect(post?.status, herald.log()).toBe("published")
    const [root, reply] = fake.messages.slice(-2)
    expect(root).toMatchObject({ method: "sendPhoto", caption: "From npm start" })
    expect(reply).toMatchObject({ text: "And a reply", replyTo: root!.message_id })
    expect(post.targets[0].url).toBe(`https://t.me/start_news/${root!.message_id}`)

    await herald.stop()
    const secret = botToken.split(":")[1]!
    const files = filesUnder(herald.dataDir)
    for (const file of files)
      expect(readFileSync(file).includes(secret), `the bot token in clear in ${file}`).toBe(false)
    // The check can see a value: the database files hold the account's profile in clear.
    expect(files.some((f) => readFileSync(f).includes("Start News"))).toBe(true)
  }, 90_000)
})
