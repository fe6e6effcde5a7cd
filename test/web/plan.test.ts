import { mkdirSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, uniqueEmail } from "../support/flows.ts"
import { chromiumAvailable, expectAccessible, launch, mailTo } from "./browser.ts"

// The people's app, next slice: edit-then-approve and the calendar (README, "The app, second wave").

const SCREENS = new URL("../../docs/screens/", import.meta.url).pathname
const keep = async (page: Page, name: string) => {
  mkdirSync(SCREENS, { recursive: true })
  await sharp(await page.screenshot())
    .png({ palette: true, compressionLevel: 9 })
    .toFile(`${SCREENS}${name}.png`)
}

const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const
type Device = keyof typeof viewports
type Lang = "en" | "ja"

const words = {
  en: {
    claim: "Claim workspace",
    edit: "Edit",
    text: "The post's text",
    comment: "First comment (optional)",
    save: "Save the edit",
    saved: "Edit saved.",
    refused: "Herald cannot take this as it is",
    notEditable: "it can no longer be edited",
    approve: "Approve",
    calendar: "Calendar",
    move: "Move",
    newTime: "New day and time",
    moved: "Moved to",
    past: "That time has passed",
    next: "Next week",
    prev: "Previous week",
    month: "Month",
    queued: "queue: Mornings"
  },
  ja: {
    claim: "受け取る",
    edit: "編集",
    text: "投稿の本文",
    comment: "最初のコメント (任意)",
    save: "編集を保存",
    saved: "編集を保存しました。",
    refused: "この内容では受け付けられません",
    notEditable: "編集できません",
    approve: "承認",
    calendar: "カレンダー",
    move: "移動",
    newTime: "新しい日時",
    moved: "に移動しました",
    past: "その日時は過ぎています",
    next: "次の週",
    prev: "前の週",
    month: "月",
    queued: "キュー: Mornings"
  }
} as const

describe.runIf(chromiumAvailable)("the people's app: edit-then-approve and the calendar", () => {
  let host: HttpHost
  let browser: Browser
  beforeAll(async () => {
    host = await startHttpHost()
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  const setUp = async (device: Device, lang: Lang, timeZone?: string) => {
    const email = uniqueEmail()
    const reply = await call(host, "POST", "/signup", {
      body: { email, agentName: "Test agent", locale: lang, ...(timeZone ? { timeZone } : {}) }
    })
    expect(reply.status).toBe(201)
    const key = reply.body.apiKey as string
    const accountId = await connectSandbox(host, key)
    const page = await browser.newPage({
      viewport: viewports[device],
      ...(device === "mobile" ? { isMobile: true, hasTouch: true } : {}),
      locale: lang === "ja" ? "ja-JP" : "en-US"
    })
    page.on("pageerror", (error) => {
      throw error
    })
    const mail = await mailTo(host, email, /\/claim\?token=/)
    await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail.text)![0]))
    await page.getByRole("button", { name: words[lang].claim }).click()
    await page.waitForURL("**/app")
    return { key, accountId, page }
  }

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: edit a post in its card, see its lengths again, then approve; refusals speak ${lang}`, async () => {
        const { key, accountId, page } = await setUp(device, lang)
        const w = words[lang]
        const content = `Spring sale ${device} ${lang}`
        const asked = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content } })
        const id = asked.body.post.id as string
        await page.clock.install()
        await page.reload()
        const card = page.locator("article.post", { hasText: content })
        await card.waitFor()
        const lengths = card.locator(".lengths li").first()
        expect(await lengths.textContent()).toContain(String(content.length))

        await card.getByRole("button", { name: w.edit, exact: true }).click()
        const text = card.getByLabel(w.text)
        expect(await text.inputValue()).toBe(content)
        expect(await page.evaluate("document.activeElement?.name")).toBe("content")
        await expectAccessible(page)
        // Blank text: the API refuses it, and the card says so in the person's language, the form kept open.
        await text.fill("   ")
        await card.getByRole("button", { name: w.save }).click()
        await card.locator(".edit-error [role=alert]").waitFor()
        expect(await card.locator(".edit-error").textContent()).toContain(w.refused)
        expect(await text.isVisible()).toBe(true)
        await expectAccessible(page)
        if (device === "desktop") await keep(page, `edit-refused-${lang}`)

        const edited = `${content}: every coat 20% off until Sunday, in every shop and online.`
        await text.fill(edited)
        await card.getByLabel(w.comment).fill("https://example.org/sale")
        await card.getByRole("button", { name: w.save }).click()
        await card.locator(".notice", { hasText: w.saved }).waitFor()
        // The lengths are counted again by the API for the new text.
        await card.locator(".lengths li", { hasText: String(edited.length) }).waitFor()
        expect(await card.locator("h2").textContent()).toBe(edited)
        const stored = (await call(host, "GET", `/posts/${id}`, { key })).body.post
        expect(stored.content).toBe(edited)
        expect(stored.firstComment).toBe("https://example.org/sale")
        expect(stored.status).toBe("needs_approval")
        await expectAccessible(page)
        await keep(page, `edit-saved-${device}-${lang}`)

        // Approve approves the edited version (its new version number came with the redrawn card).
        await card.getByRole("button", { name: w.approve, exact: true }).click()
        await page.clock.runFor(5_000)
        await expect
          .poll(async () => (await call(host, "GET", `/posts/${id}`, { key })).body.post.status)
          .not.toBe("needs_approval")
        expect((await call(host, "GET", `/posts/${id}`, { key })).body.post.content).toBe(edited)
        await page.close()
      }, 90_000)

  it("an edit of a post its agent cancelled meanwhile is refused in the card, in words", async () => {
    const { key, accountId, page } = await setUp("desktop", "en")
    const asked = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "soon gone" } })
    const id = asked.body.post.id as string
    await page.reload()
    const card = page.locator("article.post", { hasText: "soon gone" })
    await card.getByRole("button", { name: "Edit", exact: true }).click()
    const cancelled = await call(host, "POST", `/posts/${id}/cancel`, { key, body: {} })
    expect(cancelled.status).toBeLessThan(300)
    await card.getByLabel("The post's text").fill("too late")
    await card.getByRole("button", { name: "Save the edit" }).click()
    await card.locator(".edit-error [role=alert]").waitFor()
    expect(await card.locator(".edit-error").textContent()).toMatch(
      /This post is no longer there|can no longer be edited/
    )
    await page.close()
  }, 60_000)
})
