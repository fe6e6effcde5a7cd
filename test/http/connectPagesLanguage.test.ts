import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { networks } from "../../hosts/networks.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

// The connect pages a person opens from an agent's link (start, Herald's form, connected, errors) speak the
// browser's language, like sign-in and the inbox pages: one words file, one error page.

const ja = { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" }
const en = { "accept-language": "en-US,en;q=0.9" }
let host: HttpHost
let key = ""

beforeAll(async () => {
  // Offered with no settings, but off in test hosts unless turned on (the environment is read at first use).
  process.env.DISCORD_ENABLED = "true"
  host = await startHttpHost()
  key = (await signUp(host)).key
})
afterAll(async () => {
  delete process.env.DISCORD_ENABLED
  await host?.close()
})

const linkFor = async (platform: string) => {
  const reply = await call(host, "GET", `/connect/${platform}`, { key })
  expect(reply.status).toBe(200)
  return host.local(reply.body.url as string)
}

describe("connect pages in the person's language", () => {
  it("the start page and the connected page follow Accept-Language (sandbox, an OAuth-like flow)", async () => {
    const { html, next, cookie } = await continueConnectLink(await linkFor("sandbox"), ja)
    expect(html).toContain('<html lang="ja">')
    expect(html).toContain("Sandbox アカウントを接続")
    expect(html).toContain("Sandbox へ進む")
    expect(html).not.toContain("Continue to")
    const done = await fetch(host.local(next), { headers: { ...ja, cookie } })
    expect(done.status).toBe(200)
    const page = await done.text()
    expect(page).toContain("アカウントを接続しました")
    expect(page).toMatch(/ID は <code>acc_[^<]+<\/code> です/)

    const english = await continueConnectLink(await linkFor("sandbox"), en)
    expect(english.html).toContain("Continue to Sandbox")
    const doneEn = await (await fetch(host.local(english.next), { headers: { ...en, cookie: english.cookie } })).text()
    expect(doneEn).toContain("Account connected")
  })

  it("Herald's own form takes its words from the network's folder, in each language", async () => {
    const { next, cookie } = await continueConnectLink(await linkFor("discord"), ja)
    const formJa = await (await fetch(host.local(next), { headers: { ...ja, cookie } })).text()
    expect(formJa).toContain('<html lang="ja">')
    expect(formJa).toContain("Discord のチャンネルを接続")
    expect(formJa).toContain("ウェブフック URL")
    expect(formJa).toContain("<button>接続</button>")
    const formEn = await (await fetch(host.local(next), { headers: { ...en, cookie } })).text()
    expect(formEn).toContain("Connect a Discord channel")
    expect(formEn).toContain("Webhook URL")
    expect(formEn).toContain("<button>Connect</button>")
  })

  it("a spent or forged link is refused on a page in the person's language", async () => {
    const forged = `${host.origin}/connect/sandbox/start?state=forged`
    const refusedJa = await fetch(forged, { headers: ja })
    expect(refusedJa.status).toBe(400)
    const pageJa = await refusedJa.text()
    expect(pageJa).toContain('<html lang="ja">')
    expect(pageJa).toContain("問題が発生しました")
    const refusedEn = await fetch(forged, { headers: en })
    expect(await refusedEn.text()).toContain("Something is not right")
  })

  it("every network with a form declares its words in English and Japanese, a label for each field", () => {
    const withForms = networks.filter((n) => n.connectForm !== undefined)
    expect(withForms.map((n) => n.platform).sort()).toEqual(["bluesky", "discord", "mastodon", "telegram"])
    for (const n of withForms)
      for (const locale of ["en", "ja"] as const) {
        const words = n.connectForm!.words[locale]
        expect(words.title, `${n.platform} ${locale}`).not.toBe("")
        expect(Object.keys(words.labels).sort(), `${n.platform} ${locale}`).toEqual(
          n.connectForm!.fields.map((f) => f.name).sort()
        )
      }
  })
})
