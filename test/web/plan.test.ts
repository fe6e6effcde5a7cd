import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, uniqueEmail } from "../support/flows.ts"
import { chromiumAvailable, expectAccessible, keepScreen, launch, mailTo } from "./browser.ts"

// The people's app, next slice: edit-then-approve and the calendar (README, "The people's app").

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
    queued: "queue: Mornings",
    waiting: "waiting for approval"
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
    queued: "キュー: Mornings",
    waiting: "承認待ち"
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
        if (device === "desktop") await keepScreen(page, `edit-refused-${lang}`)

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
        await keepScreen(page, `edit-saved-${device}-${lang}`)

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

  for (const lang of ["en", "ja"] as const)
    it(`${lang}: an approval card's new time is a local time the API judges; a refusal is said in the card`, async () => {
      const { key, accountId, page } = await setUp("mobile", lang, "America/New_York")
      const content = `Later ${lang}`
      const id = (await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content } })).body.post
        .id as string
      await page.reload()
      const card = page.locator("article.post", { hasText: content })
      await card.getByRole("button", { name: lang === "ja" ? "日時を変更" : "Edit schedule" }).click()
      const input = card.locator("input[name=when]")
      await input.fill("2027-03-14T02:30")
      await input.press("Enter")
      await card
        .locator(".notice[role=alert]", { hasText: lang === "ja" ? "存在しません" : "does not exist" })
        .waitFor()
      await expectAccessible(page)
      await card.getByRole("button", { name: lang === "ja" ? "日時を変更" : "Edit schedule" }).click()
      await card.locator("input[name=when]").fill("2027-03-14T03:30")
      await card.locator("input[name=when]").press("Enter")
      await expect
        .poll(async () => (await call(host, "GET", `/posts/${id}`, { key })).body.post.scheduledFor)
        .toBe("2027-03-14T07:30:00.000Z")
      await page.close()
    }, 60_000)

  /** A call as the signed-in person (session cookie and CSRF token), as the app makes it. */
  const asPerson = async (page: Page, method: string, path: string, body?: unknown) =>
    (await page.evaluate(
      `fetch("/api/v1${path}", { method: "${method}", headers: { "content-type": "application/json", "x-csrf-token": document.querySelector('meta[name="csrf-token"]').content }, body: ${body === undefined ? "undefined" : JSON.stringify(JSON.stringify(body))} }).then(async (r) => ({ status: r.status, body: await r.json() }))`
    )) as { status: number; body: any }

  const dayIn = (zone: string, ms: number) =>
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms)
  const localIn = (zone: string, iso: string) =>
    new Intl.DateTimeFormat("sv-SE", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit"
    })
      .format(Date.parse(iso))
      .replace(" ", "T")
  const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: the calendar shows scheduled and queued posts by day in the workspace's zone; Move and drag reschedule`, async () => {
        const zone = lang === "ja" ? "Asia/Tokyo" : "America/New_York"
        const { accountId, page, key: asksFirst } = await setUp(device, lang, zone)
        const w = words[lang]
        await page.locator("main h1").waitFor()
        // A key that posts directly, and a schedule, made by the person (an asks-first key may not change schedules).
        const made = await asPerson(page, "POST", "/keys", { name: "direct", requireApproval: false })
        expect(made.status).toBe(201)
        const key = made.body.apiKey as string
        const inTwo = dayIn(zone, Date.now() + 2 * 86_400_000)
        const weekday = weekdays[new Date(`${inTwo}T12:00:00Z`).getUTCDay()]
        const set = await asPerson(page, "PUT", "/schedules", {
          schedules: [
            {
              name: "Mornings",
              accountIds: [accountId],
              slots: [
                { day: weekday, time: "09:00" },
                { day: weekday, time: "12:00" }
              ]
            }
          ]
        })
        expect(set.status).toBe(200)
        const timed = await call(host, "POST", "/posts", {
          key,
          body: {
            accountIds: [accountId],
            content: `Timed ${lang}`,
            scheduledFor: { local: `${inTwo}T10:00`, timeZone: zone }
          }
        })
        expect(timed.status).toBe(201)
        const queued = await call(host, "POST", "/posts", {
          key,
          body: { accountIds: [accountId], content: `Queued ${lang}`, queue: true }
        })
        expect(queued.status).toBe(201)
        // An asks-first key's queued post keeps its slot while it waits for approval.
        const waiting = await call(host, "POST", "/posts", {
          key: asksFirst,
          body: { accountIds: [accountId], content: `Waiting ${lang}`, queue: true }
        })
        expect(waiting.body.post.status).toBe("needs_approval")
        const id = timed.body.post.id as string

        await page.goto(`${host.origin}/app/calendar?day=${inTwo}`)
        // Attached, not visible: on a phone the navigation is folded behind its menu button.
        await page.getByRole("link", { name: w.calendar, includeHidden: true }).waitFor({ state: "attached" })
        const day = page.locator(`li.day[data-date="${inTwo}"]`)
        const timedItem = day.locator("li.cal-post", { hasText: `Timed ${lang}` })
        await timedItem.waitFor()
        expect(await timedItem.locator("time").textContent()).toBe("10:00")
        expect(await timedItem.textContent()).toContain("Sandbox")
        const queuedItem = day.locator("li.cal-post", { hasText: `Queued ${lang}` })
        expect(await queuedItem.locator("time").textContent()).toBe("09:00")
        expect(await queuedItem.textContent()).toContain(w.queued)
        const waitingItem = day.locator("li.cal-post", { hasText: `Waiting ${lang}` })
        expect(await waitingItem.locator("time").textContent()).toBe("12:00")
        expect(await waitingItem.textContent()).toContain(w.waiting)
        await expectAccessible(page)
        await keepScreen(page, `calendar-week-${device}-${lang}`)

        // Keyboard: Tab reaches Move; a past time is refused in the person's language, in the post itself.
        const moveButton = timedItem.getByRole("button", { name: new RegExp(w.move) })
        await moveButton.focus()
        await page.keyboard.press("Enter")
        const input = timedItem.getByLabel(new RegExp(w.newTime))
        expect(await page.evaluate("document.activeElement?.name")).toBe("when")
        const yesterday = dayIn(zone, Date.now() - 86_400_000)
        await input.fill(`${yesterday}T10:00`)
        await page.keyboard.press("Enter")
        await timedItem.locator("[role=alert]", { hasText: w.past }).waitFor()
        await expectAccessible(page)
        // A local time a DST change skips is the API's refusal too (New York springs forward at 02:00; Tokyo has no DST).
        if (zone === "America/New_York") {
          await timedItem.getByRole("button", { name: new RegExp(w.move) }).click()
          await timedItem.getByLabel(new RegExp(w.newTime)).fill("2027-03-14T02:30")
          await page.keyboard.press("Enter")
          await timedItem.locator("[role=alert]", { hasText: "does not exist in this time zone" }).waitFor()
        }
        const inThree = dayIn(zone, Date.now() + 3 * 86_400_000)
        await timedItem.getByRole("button", { name: new RegExp(w.move) }).click()
        await timedItem.getByLabel(new RegExp(w.newTime)).fill(`${inThree}T11:30`)
        await page.keyboard.press("Enter")
        await page.locator("#status", { hasText: w.moved }).waitFor()
        expect(localIn(zone, (await call(host, "GET", `/posts/${id}`, { key })).body.post.scheduledFor)).toBe(
          `${inThree}T11:30`
        )

        // Dragging the post to another day of its week keeps its time of day (the week's days are one row on a desktop).
        await page.goto(`${host.origin}/app/calendar?day=${inThree}`)
        const sunday = new Date(`${inThree}T12:00:00Z`).getUTCDay() === 0
        const other = dayIn("UTC", Date.parse(`${inThree}T12:00:00Z`) + (sunday ? -1 : 1) * 86_400_000)
        const item = page.locator(`li.day[data-date="${inThree}"] li.cal-post`, { hasText: `Timed ${lang}` })
        if (device === "desktop") {
          await item.dragTo(page.locator(`li.day[data-date="${other}"]`))
          await page.locator("#status", { hasText: w.moved }).waitFor()
          expect(localIn(zone, (await call(host, "GET", `/posts/${id}`, { key })).body.post.scheduledFor)).toBe(
            `${other}T11:30`
          )
        }
        const landed = device === "desktop" ? other : inThree

        // The month view holds both posts, the moved one on its new day.
        await page.getByRole("button", { name: w.month, exact: true }).click()
        await page.locator(`li.day[data-date="${landed}"] li.cal-post`, { hasText: `Timed ${lang}` }).waitFor()
        expect(await page.locator("li.cal-post", { hasText: `Queued ${lang}` }).count()).toBe(1)
        await expectAccessible(page)
        await keepScreen(page, `calendar-month-${device}-${lang}`)
        await page.close()
      }, 90_000)
})
