import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { continueConnectLink } from "../../support/connectLink.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeDiscord, startFakeDiscord } from "./fakeDiscord.ts"

/**
 * Discord end to end: the real HTTP host (in memory, and on PostgreSQL) connecting a channel by its
 * webhook URL on Herald's form (DISCORD_API_URL pointed at the stand-in), and the publishing pipeline
 * driven one pass at a time.
 */
let fake: FakeDiscord
beforeAll(async () => {
  fake = await startFakeDiscord()
  // Effect's default ConfigProvider copies the environment at its first use.
  process.env.HERALD_ALLOW_LOOPBACK = "true"
  process.env.DISCORD_ENABLED = "true"
  process.env.DISCORD_API_URL = fake.apiUrl
})
afterAll(() => fake?.close())

describe.each([{ backend: "memory" }, { backend: "postgres" }])(
  "Discord end to end on the $backend host",
  ({ backend }) => {
    let host: HttpHost
    let key = ""
    let accountId = ""
    /** How far the test moved Herald's clock past the real one (a first comment waits its delay). */
    let ahead = 0
    const hook = { id: "", url: "", channelId: "" }

    beforeAll(async () => {
      if (backend === "postgres") process.env.HERALD_TEST_BACKEND = "postgres"
      else delete process.env.HERALD_TEST_BACKEND
      host = await startHttpHost()
      const { email } = await signUp(host)
      const { cookie, csrf } = await claim(host, email)
      const created = await call(host, "POST", "/keys", {
        cookie,
        headers: { "x-csrf-token": csrf },
        body: { name: "Discord agent", requireApproval: false }
      })
      key = created.body.apiKey
      Object.assign(hook, fake.addWebhook({ name: `Herald ${backend}` }))
    }, 60_000)
    afterAll(() => host?.close())

    const pass = () =>
      host.run(
        Effect.gen(function* () {
          yield* TestClock.setTime(Date.now() + ahead)
          return yield* publishDueTargets(defaultPipelineOptions, 50)
        }).pipe(Effect.provide(TestClock.layer()))
      )
    const passes = async (max = 10) => {
      for (let i = 0; i < max; i++) {
        if ((await pass()) === 0) {
          ahead += 5_000
          if ((await pass()) === 0) return
        }
      }
    }

    /** The browser: GET /connect/discord, Herald's start page, its form, the webhook URL sent. */
    const connect = async (webhookUrl: string) => {
      const link = await call(host, "GET", "/connect/discord", { key })
      expect(link.status, JSON.stringify(link.body)).toBe(200)
      const { next, cookie } = await continueConnectLink(host.local(link.body.url))
      const formUrl = host.local(next)
      expect(new URL(formUrl).pathname).toBe("/connect/discord/form")
      const page = await fetch(formUrl, { headers: { cookie } })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('name="webhookUrl" type="password"')
      const sent = await fetch(host.local("http://x/connect/discord/callback"), {
        method: "POST",
        headers: {
          origin: new URL(link.body.url).origin,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          cookie
        },
        body: new URLSearchParams({ state: new URL(formUrl).searchParams.get("state")!, webhookUrl })
      })
      return { status: sent.status, body: (await sent.json()) as any }
    }
    const post = async (body: Record<string, unknown>) => {
      const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], ...body } })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body.post.id as string
    }
    const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post

    it("refuses a URL on another host on the form, with the field named", async () => {
      const refused = await connect(`https://evil.example/api/webhooks/${hook.id}/token`)
      expect(refused.status).toBe(400)
      expect(refused.body.error.details.fields).toEqual(["webhookUrl"])
    })

    it("connects the webhook's channel, its URL sealed", async () => {
      const connected = await connect(hook.url)
      expect(connected.status, JSON.stringify(connected.body)).toBe(200)
      expect(connected.body.account).toMatchObject({
        platform: "discord",
        name: `Herald ${backend}`,
        username: hook.channelId,
        status: "connected"
      })
      accountId = connected.body.account.id
      const sealed = await host.run(
        Effect.gen(function* () {
          const s = Option.getOrThrow(yield* (yield* CredentialStore).get(accountId)).sealed
          return { s, open: JSON.parse(yield* (yield* TokenVault).open(s)) as NetworkCredentials }
        })
      )
      expect(sealed.s).not.toContain(hook.url.split("/").at(-1))
      expect(sealed.open.accessToken).toBe(hook.url)
    })

    it("publishes a post with a thread and a first comment, then takes them down", async () => {
      const before = fake.state.messages.size
      const id = await post({ content: "Hello Discord @everyone", thread: ["Second"], firstComment: "Comment" })
      await passes()
      // The first comment waits its delay after the thread: a few passes further on.
      for (let i = 0; i < 4; i++) {
        ahead += 30_000
        await pass()
      }
      const published = await view(id)
      expect(published.status, JSON.stringify(published)).toBe("published")
      const mine = [...fake.state.messages.values()].filter((m) => m.webhookId === hook.id)
      expect(mine.map((m) => m.content)).toEqual(["Hello Discord @everyone", "Second", "Comment"])
      expect(mine.every((m) => JSON.stringify(m.allowedMentions) === '{"parse":[]}')).toBe(true)
      expect(fake.state.messages.size).toBe(before + 3)
      expect(published.targets[0].url).toContain(`/channels/`)

      const down = await call(host, "DELETE", `/posts/${id}/targets/${accountId}`, { key })
      expect(down.status, JSON.stringify(down.body)).toBe(202)
      await passes()
      expect((await view(id)).targets[0].deletion).toMatchObject({ status: "deleted", error: null })
      expect([...fake.state.messages.values()].some((m) => m.webhookId === hook.id)).toBe(false)
    })

    it("a dry run tells what Discord decides, and refuses text over 2000 at create", async () => {
      const dry = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "Checking", dryRun: true }
      })
      expect(dry.status, JSON.stringify(dry.body)).toBe(200)
      const warnings: Array<string> = dry.body.targets?.[0]?.warnings ?? dry.body.preview?.targets?.[0]?.warnings
      expect(warnings.join(" ")).toContain("discord.threadName")
      const long = await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "x".repeat(2001) }
      })
      expect(long.status).toBe(400)
    })

    it("a deleted webhook fails the target as needing reconnection", async () => {
      const id = await post({ content: "After deletion" })
      fake.state.webhooks.delete(hook.id)
      await passes()
      const failed = (await view(id)).targets[0]
      expect(failed).toMatchObject({ status: "failed", error: { code: "account_needs_reconnection" } })
      expect(failed.error.message).toContain("Unknown Webhook")
      const accounts = await call(host, "GET", "/accounts", { key })
      expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("needs_reconnection")
    })
  }
)
