import sharp from "sharp"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultMetricsOptions, refreshDueMetrics } from "../../application/usecases/metrics/worker.ts"
import { strings } from "../../hosts/http/pages/assets.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, uniqueEmail } from "../support/flows.ts"
import { chromiumAvailable, expectAccessible, keepScreen, launch, mailTo, publishDue } from "./browser.ts"

// The flows the other web files leave at one size or language, at 1280x800 and 390x844 in en and ja:
// the phone's menu, empty states, a revoked key, an API refusal, reject with its reason, and History with
// each published target's figures, a chart of its readings and the time filter. axe runs on each state.

const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const
type Device = keyof typeof viewports
type Lang = "en" | "ja"
const HOUR = 3_600_000

describe.runIf(chromiumAvailable)("the people's app per flow, desktop and phone, en and ja", () => {
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

  /** A workspace in `lang`, claimed in the browser, with a sandbox account and its agent's asks-first key. */
  const setUp = async (device: Device, lang: Lang) => {
    const email = uniqueEmail()
    const reply = await call(host, "POST", "/signup", { body: { email, agentName: "Agent", locale: lang } })
    expect(reply.status).toBe(201)
    const key = reply.body.apiKey as string
    const accountId = await connectSandbox(host, key)
    // A second sandbox account for the post whose figures the network refuses (a refusal covers the whole account).
    const quietId = await connectSandbox(host, key)
    expect(quietId).not.toBe(accountId)
    const page = await browser.newPage({
      viewport: viewports[device],
      ...(device === "mobile" ? { isMobile: true, hasTouch: true } : {}),
      locale: lang === "ja" ? "ja-JP" : "en-US"
    })
    page.on("pageerror", (error) => {
      throw error
    })
    await page.clock.install()
    const mail = await mailTo(host, email, /\/claim\?token=/)
    await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail.text)![0]))
    await page.getByRole("button", { name: lang === "ja" ? "受け取る" : "Claim workspace" }).click()
    await page.waitForURL("**/app")
    return { key, accountId, quietId, page }
  }

  /** The session's own API calls (with its CSRF token), as the page makes them. */
  const asPerson =
    (page: Page) =>
    async (method: "POST" | "PATCH", path: string, data: unknown = {}) => {
      const csrf = (await page.locator('meta[name="csrf-token"]').getAttribute("content"))!
      const response = await page.request.fetch(`${host.origin}/api/v1${path}`, {
        method,
        headers: { "x-csrf-token": csrf, "content-type": "application/json" },
        data
      })
      expect(response.status(), path).toBeLessThan(300)
      return response.json()
    }

  /** One pass of the metrics reads with the clock `ahead` of now (the worker's due times are hours apart). */
  const readFiguresAt = (ahead: number) =>
    host.run(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now() + ahead)
        return yield* refreshDueMetrics(defaultMetricsOptions)
      }).pipe(Effect.provide(TestClock.layer()))
    )

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: menu, empty states, revoked key, a refusal, reject with a reason, History with figures and time`, async () => {
        const s = strings[lang]
        const { key, accountId, quietId, page } = await setUp(device, lang)
        const person = asPerson(page)
        const { width, height } = viewports[device]

        // Empty queue; the header is small and every navigation entry is reachable, by keyboard too.
        await page.getByText(s["queue.empty"]!).waitFor()
        await expectAccessible(page)
        expect((await page.locator("body > header").boundingBox())!.height).toBeLessThan(height / 8)
        const keysLink = page.getByRole("link", { name: s["nav.keys"] })
        if (device === "mobile") {
          expect(await keysLink.isVisible()).toBe(false)
          await page.getByRole("button", { name: s["nav.menu"] }).focus()
          await page.keyboard.press("Enter")
        } else expect(await page.locator(".menu-toggle").isVisible()).toBe(false)
        for (const view of ["queue", "calendar", "posts", "accounts", "keys", "settings"]) {
          const box = (await page.getByRole("link", { name: s[`nav.${view}`] }).boundingBox())!
          expect(box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height, view).toBe(true)
        }
        if (device === "mobile") {
          await expectAccessible(page)
          await keepScreen(page, `menu-mobile-${lang}`)
          // Escape folds it again and gives the focus back to the button.
          await page.keyboard.press("Escape")
          expect(await keysLink.isVisible()).toBe(false)
          await page.keyboard.press("Enter")
        }
        for (let i = 0; i < 8 && (await page.evaluate("document.activeElement.textContent")) !== s["nav.keys"]; i++)
          await page.keyboard.press("Tab")
        await page.keyboard.press("Enter")
        await page.waitForURL("**/app/keys")

        // A revoked key's row, and the API's refusal of a webhook address said in the page.
        const made = await person("POST", "/keys", { name: `Old ${lang}`, requireApproval: true })
        await person("POST", `/keys/${made.key.id}/revoke`)
        await page.reload()
        await page.locator("li.row.revoked").waitFor()
        await expectAccessible(page)
        await page.getByLabel(s["hooks.url"]!).fill("ftp://example.org/hook")
        await page.getByRole("button", { name: s["hooks.add"] }).click()
        await page.locator("#status.toast.error.shown").waitFor()
        await expectAccessible(page)

        // History before anything was posted; the pages no other flow here visits, as they first look.
        await page.goto(`${host.origin}/app/posts`)
        await page.getByText(s["posts.empty"]!).waitFor()
        await expectAccessible(page)
        for (const [path, ready] of [
          ["/app/accounts", "li.row"],
          ["/app/settings", "#sessions li"],
          ["/app/calendar", "ol.cal"]
        ] as const) {
          await page.goto(`${host.origin}${path}`)
          await page.locator(ready).first().waitFor()
          await expectAccessible(page)
        }

        // Three posts: one published and read three times, one whose account gives no figures, one to reject.
        const ask = async (content: string, to = accountId) =>
          (await call(host, "POST", "/posts", { key, body: { accountIds: [to], content } })).body.post.id as string
        // Asked in this order so the post with figures is the newest, first under the period's sums.
        await ask(`Wrong price ${lang} ${device}`)
        const without = await ask(`Quiet note ${lang} ${device} #nometrics`, quietId)
        const withFigures = await ask(`Spring sale ${lang} ${device}`)
        for (const id of [withFigures, without]) await person("POST", `/posts/${id}/approve`)
        expect(await publishDue(host)).toBeGreaterThanOrEqual(2)
        for (const ahead of [HOUR + 60_000, 24 * HOUR + 60_000, 7 * 24 * HOUR + 60_000]) await readFiguresAt(ahead)
        const history = (await call(host, "GET", `/posts/${withFigures}/metrics`, { key })).body
        expect(history.targets[0].readings.length).toBe(3)

        // Reject from the queue with a reason, past the undo window.
        await page.goto(`${host.origin}/app`)
        const card = page.locator("article.post", { hasText: `Wrong price ${lang}` })
        await card.getByRole("button", { name: s["queue.reject"], exact: true }).click()
        await card.getByLabel(s["queue.reason"]!).fill("The price is wrong.")
        await expectAccessible(page)
        await card.getByRole("button", { name: s["queue.confirmReject"] }).click()
        await page.getByRole("button", { name: s["queue.undo"] }).waitFor()
        await expectAccessible(page)
        await page.clock.runFor(5_000)
        await page.getByText(s["queue.empty"]!).waitFor()

        // History: each published target's latest figures and the chart of its readings; the reason of the rejection.
        await page.goto(`${host.origin}/app/posts`)
        const post = (text: string) => page.locator("article.post", { hasText: text })
        const read = post(`Spring sale ${lang}`)
        await read.locator(".figures").waitFor()
        const latest = history.targets[0].readings[2].figures.views.value as number
        expect(await read.locator(".figures").textContent()).toContain(new Intl.NumberFormat(lang).format(latest))
        expect(await read.locator(".chart svg polyline").getAttribute("points")).toMatch(
          /^[\d.]+,[\d.]+( [\d.]+,[\d.]+){2}$/
        )
        expect(await read.locator(".chart figcaption").textContent()).toContain(s["figures.views"])
        // The sandbox gives no watch time: named with its reason, never a zero.
        expect(await read.locator(".not-given").textContent()).toContain("The sandbox has no video player.")
        expect(await post(`Quiet note ${lang}`).locator(".figures-none").textContent()).toContain("#nometrics")
        expect(await post(`Wrong price ${lang}`).locator(".reason").textContent()).toContain("The price is wrong.")
        expect(await page.locator(".period .figures").textContent()).toContain(s["figures.views"])
        await expectAccessible(page)
        if (device === "mobile") await read.scrollIntoViewIfNeeded()
        await keepScreen(page, `history-metrics-${device}-${lang}`)

        // Read now: the post's published target is due for a read at once.
        await read.getByRole("button", { name: s["figures.refresh"] }).click()
        await page.locator("#status.shown").waitFor()
        expect(await page.locator("#status").textContent()).toBe(s["figures.asked"]!.replace("{n}", "1"))

        // Time: the last 7 days keep them; a range of days long past shows none.
        await page.getByLabel(s["history.period"]!).selectOption("7")
        await page.getByRole("button", { name: s["history.filter"] }).click()
        await page.waitForURL("**/app/posts?period=7")
        await page.locator("main:not([aria-busy])").waitFor()
        await read.locator(".chart").waitFor()
        await page.getByLabel(s["history.period"]!).selectOption("range")
        await page.getByLabel(s["history.from"]!, { exact: true }).fill("2020-01-01")
        await page.getByLabel(s["history.to"]!, { exact: true }).fill("2020-01-31")
        await page.getByRole("button", { name: s["history.filter"] }).click()
        await page.getByText(s["history.none"]!).waitFor()
        expect(page.url()).toContain("period=range&from=2020-01-01&to=2020-01-31")
        await expectAccessible(page)
        await page.close()
      }, 120_000)

  for (const [device, lang] of [
    ["desktop", "en"],
    ["mobile", "ja"]
  ] as const)
    it(`${device} ${lang}: an approval card edits the thread, a poll and the media through PATCH (a refusal stays in the card); History edits a scheduled post`, async () => {
      const s = strings[lang]
      const { key, accountId, page } = await setUp(device, lang)
      const upload = async (colour: string) => {
        const form = new FormData()
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
          .png()
          .toBuffer()
        form.append("file", new Blob([png]), "picture.png")
        const reply = await fetch(`${host.base}/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body: form
        })
        return ((await reply.json()) as { media: { id: string } }).media.id
      }
      const mediaIds = [await upload("#2a6"), await upload("#a26")]
      const asked = await call(host, "POST", "/posts", {
        key,
        body: {
          accountIds: [accountId],
          content: `Threaded ${lang}`,
          thread: ["First reply", "Second reply"],
          mediaIds
        }
      })
      const id = asked.body.post.id as string
      await page.goto(`${host.origin}/app`)
      const card = page.locator("article.post", { hasText: `Threaded ${lang}` })
      await card.getByRole("button", { name: s["edit.open"], exact: true }).click()
      const form = card.locator("form.edit")
      await form.locator("details.edit-more[open]").waitFor()
      const replies = form.locator("textarea[name=thread]")
      expect(await replies.count()).toBe(3)
      await replies.nth(0).fill("First reply, edited")
      await replies.nth(1).fill("")
      await form.getByLabel(s["edit.pollOptions"]!).fill("Yes\nNo")
      // A poll beside media: the API refuses, and says so in the card.
      await form.getByRole("button", { name: s["edit.save"] }).click()
      await form.locator(".edit-error [role=alert]").waitFor()
      await expectAccessible(page)
      for (const box of await form.locator("input[name=media]").all()) await box.uncheck()
      await form.getByRole("button", { name: s["edit.save"] }).click()
      await card.getByText(s["edit.saved"]!).waitFor()
      const post = (await call(host, "GET", `/posts/${id}`, { key })).body.post
      expect(post).toMatchObject({
        thread: ["First reply, edited"],
        poll: { options: ["Yes", "No"], durationMinutes: 1440 },
        mediaIds: [],
        status: "needs_approval"
      })
      await expectAccessible(page)

      // A scheduled post is edited from its History card through the same PATCH, and stays scheduled.
      const later = await call(host, "POST", "/posts", {
        key,
        body: {
          accountIds: [accountId],
          content: `Later ${lang}`,
          scheduledFor: new Date(Date.now() + 2 * 86_400_000).toISOString()
        }
      })
      const laterId = later.body.post.id as string
      await asPerson(page)("POST", `/posts/${laterId}/approve`)
      await page.goto(`${host.origin}/app/posts?status=scheduled`)
      const scheduled = page.locator("article.post", { hasText: `Later ${lang}` })
      await scheduled.getByRole("button", { name: s["edit.open"], exact: true }).click()
      await scheduled.getByLabel(s["edit.content"]!).fill(`Later ${lang}, edited`)
      await scheduled.getByText(s["edit.more"]!).click()
      await scheduled.locator("textarea[name=thread]").first().fill("And a reply")
      await expectAccessible(page)
      await scheduled.getByRole("button", { name: s["edit.save"] }).click()
      await page.getByText(s["history.edited"]!).waitFor()
      expect((await call(host, "GET", `/posts/${laterId}`, { key })).body.post).toMatchObject({
        content: `Later ${lang}, edited`,
        thread: ["And a reply"],
        status: "scheduled"
      })
      await page.close()
    }, 60_000)
})
