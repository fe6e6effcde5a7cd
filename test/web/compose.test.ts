import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import sharp from "sharp"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { addAccount, connectSandbox, uniqueEmail } from "../support/flows.ts"
import {
  chromiumAvailable,
  expectAccessible,
  followNav,
  keepScreen,
  launch,
  mailTo,
  publishDue,
  screenshot
} from "./browser.ts"

// The people's app composer (README, "The people's app"): write, see each network's advice live, then publish
// now, schedule or queue; media by drag and drop or the file picker.

const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const
type Device = keyof typeof viewports
type Lang = "en" | "ja"
const zones = { en: "America/New_York", ja: "Asia/Tokyo" } as const

const words = {
  en: {
    claim: "Claim workspace",
    compose: "Compose",
    text: "Text",
    publishNow: "Publish now",
    atTime: "At a day and time",
    dayTime: "Day and time",
    schedule: "Schedule",
    queueMode: "Next free slot in the queue",
    addToQueue: "Add to queue",
    ready: "ready",
    refused: "refused",
    sentNow: "Sent: it is being published.",
    scheduled: "Scheduled for",
    queued: "Added to the queue",
    blank: "content",
    past: "scheduledFor",
    choose: "Choose files",
    differentX: "Different text on X",
    textOnX: "Text on X"
  },
  ja: {
    claim: "受け取る",
    compose: "投稿を作成",
    text: "本文",
    publishNow: "今すぐ公開",
    atTime: "日時を指定",
    dayTime: "日時",
    schedule: "予約する",
    queueMode: "キューの次の空き枠",
    addToQueue: "キューに追加",
    ready: "投稿可",
    refused: "不可",
    sentNow: "送信しました。公開処理中です。",
    scheduled: "に予約しました",
    queued: "キューに追加しました",
    blank: "この内容では受け付けられません",
    past: "その日時は過ぎています",
    choose: "ファイルを選ぶ",
    differentX: "X では別の本文にする",
    textOnX: "X の本文"
  }
} as const

/** "YYYY-MM-DD" and "YYYY-MM-DDTHH:MM" of an instant in a zone. */
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

describe.runIf(chromiumAvailable)("the people's app: the composer", () => {
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

  /** A claimed workspace in `lang` and its zone, with a sandbox account; the page is on the composer. */
  const setUp = async (device: Device, lang: Lang) => {
    const email = uniqueEmail()
    const reply = await call(host, "POST", "/signup", {
      body: { email, agentName: "Test agent", locale: lang, timeZone: zones[lang] }
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
    await followNav(page, words[lang].compose)
    await page.waitForURL("**/app/compose")
    await page.getByLabel(words[lang].text, { exact: true }).waitFor()
    return { key, accountId, page, workspaceId: reply.body.workspace.id as string }
  }

  const postsOf = async (key: string) => (await call(host, "GET", "/posts?limit=100", { key })).body.posts as any[]

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: a refusal beside its field, live advice, publish now, then schedule at a local time`, async () => {
        const { key, page } = await setUp(device, lang)
        const w = words[lang]
        const zone = zones[lang]
        const text = page.getByLabel(w.text, { exact: true })
        const policy = (await page.request.get(`${host.origin}/app/compose`)).headers()["content-security-policy"]
        expect(policy).toContain("script-src 'self';")
        await expectAccessible(page)

        // Nothing written: the API's refusal is said beside the text, which is marked invalid.
        await page.getByRole("button", { name: w.publishNow, exact: true }).click()
        await page.locator("#compose-text-error[role=alert]").waitFor()
        expect(await page.locator("#compose-text-error").textContent()).toContain(w.blank)
        expect(await text.getAttribute("aria-invalid")).toBe("true")
        if (device === "mobile") await screenshot(page, `compose-refused-${lang}`)
        await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("compose-text")
        await expectAccessible(page)

        // Writing brings each target's advice (the dry run), with its length by its network's counting.
        const content = `Spring sale ${device} ${lang}`
        await text.fill(content)
        const advice = page.locator(".targets-advice li", { hasText: "Sandbox" })
        await advice.locator(".badge", { hasText: w.ready }).waitFor()
        expect(await advice.locator(".count").textContent()).toContain(String(content.length))
        expect(await text.getAttribute("aria-invalid")).toBeNull()
        await expectAccessible(page)
        await keepScreen(page, `compose-${device}-${lang}`)

        await page.getByRole("button", { name: w.publishNow, exact: true }).click()
        await page.locator(".sent", { hasText: w.sentNow }).waitFor()
        expect(await text.inputValue()).toBe("")
        const now = (await postsOf(key)).find((p) => p.content === content)
        expect(now.status).toBe("publishing")
        expect(now.createdBy.kind).toBe("person")
        await publishDue(host)
        expect((await call(host, "GET", `/posts/${now.id}`, { key })).body.post.status).toBe("published")

        // Scheduled at a local time in the workspace's zone: the API refuses a past one beside the time.
        const later = `Later ${device} ${lang}`
        await text.fill(later)
        await page.getByLabel(w.atTime).check()
        const at = page.getByLabel(new RegExp(`^${w.dayTime} \\(`))
        await at.fill(`${dayIn(zone, Date.now() - 86_400_000)}T10:30`)
        await page.getByRole("button", { name: w.schedule, exact: true }).click()
        await page.locator("#when-error[role=alert]", { hasText: w.past }).waitFor()
        const inTwo = dayIn(zone, Date.now() + 2 * 86_400_000)
        await at.fill(`${inTwo}T10:30`)
        await page.getByRole("button", { name: w.schedule, exact: true }).click()
        await page.locator(".sent", { hasText: w.scheduled }).waitFor()
        const scheduled = (await postsOf(key)).find((p) => p.content === later)
        expect(scheduled.status).toBe("scheduled")
        expect(localIn(zone, scheduled.scheduledFor)).toBe(`${inTwo}T10:30`)
        // The message and the calendar say the workspace's local time.
        expect(await page.locator(".sent").textContent()).toMatch(/10:30/)
        await page.locator(".sent a").click()
        const item = page.locator(`li.day[data-date="${inTwo}"] li.cal-post`, { hasText: later })
        await item.waitFor()
        expect(await item.locator("time").textContent()).toBe("10:30")
        await page.close()
      }, 90_000)

  /** A call as the signed-in person (session cookie and CSRF token), as the app makes it. */
  const asPerson = async (page: Page, method: string, path: string, body?: unknown) =>
    (await page.evaluate(
      `fetch("/api/v1${path}", { method: "${method}", headers: { "content-type": "application/json", "x-csrf-token": document.querySelector('meta[name="csrf-token"]').content }, body: ${body === undefined ? "undefined" : JSON.stringify(JSON.stringify(body))} }).then(async (r) => ({ status: r.status, body: await r.json() }))`
    )) as { status: number; body: any }

  it("desktop en, keyboard only: add to the queue takes the schedule's next free slot", async () => {
    const { key, accountId, page } = await setUp("desktop", "en")
    const w = words.en
    const zone = zones.en
    const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const
    const inTwo = dayIn(zone, Date.now() + 2 * 86_400_000)
    const set = await asPerson(page, "PUT", "/schedules", {
      schedules: [
        {
          name: "Mornings",
          accountIds: [accountId],
          slots: [{ day: weekdays[new Date(`${inTwo}T12:00:00Z`).getUTCDay()], time: "09:00" }]
        }
      ]
    })
    expect(set.status).toBe(200)
    await page.getByLabel(w.text, { exact: true }).focus()
    await page.keyboard.type("Queued by keyboard")
    // A first comment, a thread reply and a poll, each reached and filled from the keyboard.
    await page.getByLabel(/^First comment/).focus()
    await page.keyboard.type("https://example.org/more")
    await page.getByRole("button", { name: "Add a reply" }).focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("reply-0")
    await page.keyboard.type("And one more thing")
    await page.getByRole("checkbox", { name: /^Add a poll/ }).focus()
    await page.keyboard.press("Space")
    await page.getByLabel("Choice 1").focus()
    await page.keyboard.type("Yes")
    await page.keyboard.press("Tab")
    await page.keyboard.type("No")
    await expectAccessible(page)
    // Tab to the When radios, arrows choose within them, Tab to the button, Enter sends.
    await page.getByLabel(w.publishNow, { exact: true }).focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    expect(await page.getByLabel(w.queueMode).isChecked()).toBe(true)
    // The dry run names the slot before anything is sent.
    await page.locator(".planned", { hasText: /\b9:00/ }).waitFor()
    await page.getByRole("button", { name: w.addToQueue }).focus()
    expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).toBe("solid")
    await page.keyboard.press("Enter")
    await page.locator(".sent", { hasText: w.queued }).waitFor()
    await expect.poll(() => page.evaluate("document.activeElement?.className")).toBe("sent")
    const queued = (await postsOf(key)).find((p) => p.content === "Queued by keyboard")
    expect(localIn(zone, queued.scheduledFor)).toBe(`${inTwo}T09:00`)
    expect(queued.firstComment).toBe("https://example.org/more")
    expect(queued.thread).toEqual(["And one more thing"])
    expect(queued.poll).toMatchObject({ options: ["Yes", "No"], durationMinutes: 1440 })
    await page.close()
  }, 60_000)

  it("desktop ja: a too-long X post is refused live for X only, with X's weighted length; X's own text fixes it", async () => {
    const { workspaceId, page } = await setUp("desktop", "ja")
    const w = words.ja
    await addAccount(host, workspaceId, "x")
    await page.reload()
    await page.getByRole("checkbox", { name: /Sandbox/ }).check()
    await page.getByRole("checkbox", { name: /^X/ }).check()
    // 150 CJK characters: 150 by most counts, 300 by X's weighting (limit 280).
    await page.getByLabel(w.text, { exact: true }).fill("春".repeat(150))
    const x = page.locator(".targets-advice li[data-platform=x]")
    await x.locator(".badge", { hasText: w.refused }).waitFor()
    expect(await x.locator(".count").textContent()).toContain("300/280")
    expect(await page.locator(".targets-advice li[data-platform=sandbox] .badge").textContent()).toBe(w.ready)
    await page.locator("#compose-text-error", { hasText: "longer than X allows" }).waitFor()
    // X's preview cuts the text where X would: 140 characters shown (280 by X's weighting), the rest struck through.
    expect(await x.locator(".preview p.text del").textContent()).toBe("春".repeat(10))
    await expectAccessible(page)
    await screenshot(page, "compose-x-too-long")

    await page.getByLabel(w.differentX, { exact: true }).check()
    await page.getByLabel(w.textOnX).fill("春のセール")
    await x.locator(".badge", { hasText: w.ready }).waitFor()
    expect(await x.locator(".count").textContent()).toContain("10/280")
    await page.close()
  }, 60_000)

  it("desktop en: media by drag and drop and by the file picker, each with its preview, go out with the post", async () => {
    const { key, page } = await setUp("desktop", "en")
    const png = async (background: string) =>
      (
        await sharp({ create: { width: 320, height: 200, channels: 3, background } })
          .png()
          .toBuffer()
      ).toString("base64")
    const dropped = await page.evaluateHandle(
      ([data, name]) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
        // The page's DataTransfer (the test's types know no DOM).
        const transfer = new (globalThis as any).DataTransfer()
        transfer.items.add(new File([bytes], name, { type: "image/png" }))
        return transfer
      },
      [await png("#2a6"), "dropped.png"] as const
    )
    await page.dispatchEvent(".drop", "dragover", { dataTransfer: dropped })
    await page.dispatchEvent(".drop", "drop", { dataTransfer: dropped })
    await page.locator("input[type=file]").setInputFiles({
      name: "picked.png",
      mimeType: "image/png",
      buffer: Buffer.from(await png("#a26"), "base64")
    })
    for (const name of ["dropped.png", "picked.png"]) {
      const preview = page.getByRole("img", { name: `Preview of ${name}` })
      await preview.waitFor()
      await expect
        .poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), {
          timeout: 10_000
        })
        .toBeGreaterThan(0)
    }
    // A file that is no image or video is refused in the API's words in its place, and can be removed.
    await page.locator("input[type=file]").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("just words")
    })
    const refused = page.locator(".uploads li.failed", { hasText: "notes.txt" })
    await refused.locator("[role=alert]").waitFor()
    await page.getByLabel(words.en.text, { exact: true }).fill("Two pictures")
    await expectAccessible(page)
    await refused.getByRole("button", { name: "Remove notes.txt" }).click()
    await refused.waitFor({ state: "detached" })
    await page.getByRole("button", { name: words.en.publishNow, exact: true }).click()
    await page.locator(".sent").waitFor()
    const post = (await postsOf(key)).find((p) => p.content === "Two pictures")
    expect(post.mediaIds).toHaveLength(2)
    await page.close()
  }, 60_000)

  it("desktop en: a Reddit target's own settings (the subreddit required beside its field), each network's preview, a video's cover", async () => {
    const { key, workspaceId, page } = await setUp("desktop", "en")
    await addAccount(host, workspaceId, "reddit")
    await page.reload()
    await page.getByRole("checkbox", { name: /Sandbox/ }).check()
    await page.getByRole("checkbox", { name: /^Reddit/ }).check()
    // Reddit's settings appear with the target, from the contract's schema: the subreddit marked required.
    const reddit = page.getByRole("group", { name: "Reddit settings" })
    const subreddit = reddit.getByLabel(/^Subreddit/)
    expect(await subreddit.getAttribute("required")).not.toBeNull()
    await page.getByLabel(words.en.text, { exact: true }).fill("Spring sale\nEverything half price this week.")
    await page.locator("#opt-reddit-subreddit-error", { hasText: "subreddit" }).waitFor()
    expect(await subreddit.getAttribute("aria-invalid")).toBe("true")
    await expectAccessible(page)
    await subreddit.fill("r/typescript")
    await reddit.getByLabel("Kind of post").selectOption({ label: "Link" })
    await reddit.getByLabel("Link (for a link post)").fill("https://example.org/sale")
    await page.locator("#opt-reddit-subreddit-error").filter({ hasText: /./ }).waitFor({ state: "detached" })
    expect(await subreddit.getAttribute("aria-invalid")).toBeNull()

    // Each target's preview: the sandbox's thread as numbered replies, the first comment under it.
    await page.getByLabel(/^First comment/).fill("More at example.org")
    await page.getByRole("button", { name: "Add a reply" }).click()
    await page.getByLabel("Reply 1", { exact: true }).fill("And free shipping")
    const sandbox = page.locator(".targets-advice li[data-platform=sandbox] .preview")
    await sandbox.locator("ol.thread li", { hasText: "And free shipping" }).waitFor()
    await sandbox.locator("p.comment", { hasText: "More at example.org" }).waitFor()
    expect(await sandbox.locator("p.text").textContent()).toContain("Everything half price")
    await expectAccessible(page)
    await page.getByRole("heading", { name: "Settings per network" }).scrollIntoViewIfNeeded()
    await keepScreen(page, "compose-reddit-en")

    // A lone video takes a cover: a frame 1.5 s in goes with the post.
    const dir = mkdtempSync(join(tmpdir(), "herald-compose-"))
    const clip = join(dir, "clip.mp4")
    execFileSync(ffmpeg.path, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=320x240:rate=15",
      "-t",
      "2",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      clip
    ])
    const video = readFileSync(clip)
    rmSync(dir, { recursive: true, force: true })
    await page.getByRole("checkbox", { name: /^Reddit/ }).uncheck()
    await page.locator(".media-picker input[type=file]").setInputFiles({
      name: "clip.mp4",
      mimeType: "video/mp4",
      buffer: video
    })
    const cover = page.getByRole("group", { name: "Video cover" })
    await cover.getByLabel("A frame of the video").check()
    await cover.getByLabel(/^Frame at/).fill("1.5")
    await expectAccessible(page)
    await page.getByLabel(words.en.atTime).check()
    await page.getByRole("button", { name: words.en.schedule, exact: true }).click()
    await page.locator(".sent").waitFor()
    const post = (await postsOf(key)).find((p) => p.content.startsWith("Spring sale"))
    expect(post.cover).toEqual({ offsetMs: 1500 })
    expect(post.thread).toEqual(["And free shipping"])

    // Or an uploaded image: its preview shows, and its id is the cover.
    await page.locator(".media-picker input[type=file]").setInputFiles({
      name: "clip.mp4",
      mimeType: "video/mp4",
      buffer: video
    })
    await page.getByLabel(words.en.text, { exact: true }).fill("With a cover image")
    await cover.getByLabel("An image").check()
    await cover.locator("input[type=file]").setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: await sharp({ create: { width: 320, height: 200, channels: 3, background: "#26a" } })
        .png()
        .toBuffer()
    })
    await cover.getByRole("img", { name: "Preview of cover.png" }).waitFor()
    await expectAccessible(page)
    await page.getByLabel(words.en.atTime).check()
    await page.getByRole("button", { name: words.en.schedule, exact: true }).click()
    await page.locator(".sent", { hasText: words.en.scheduled }).waitFor()
    const withImage = (await postsOf(key)).find((p) => p.content === "With a cover image")
    expect(withImage.cover.mediaId).toMatch(/^med_/)
    expect(withImage.mediaIds).toHaveLength(1)
    await page.close()
  }, 60_000)

  it("desktop en: Reddit's settings go out with the post; the subreddit field offers the account's subreddits", async () => {
    const { key, workspaceId, page } = await setUp("desktop", "en")
    const account = await addAccount(host, workspaceId, "reddit")
    // This host has no Reddit to ask: the page's call to GET /accounts/{id}/boards is answered in its documented shape.
    await page.route(`**/api/v1/accounts/${account}/boards`, (route) =>
      route.fulfill({
        json: { boards: [{ id: "typescript", name: "r/typescript", description: null, privacy: null }] }
      })
    )
    await page.reload()
    await page.getByRole("checkbox", { name: /^Reddit/ }).check()
    const reddit = page.getByRole("group", { name: "Reddit settings" })
    await page.getByLabel(words.en.text, { exact: true }).fill("Link post")
    await reddit
      .locator("datalist option[value=typescript]", { hasText: "r/typescript" })
      .waitFor({ state: "attached" })
    expect(await reddit.getByLabel(/^Subreddit/).getAttribute("list")).toBe("opt-reddit-subreddit-choices")
    await reddit.getByLabel(/^Subreddit/).fill("typescript")
    await reddit.getByLabel(/^Title/).fill("A sale")
    await reddit.getByLabel("Kind of post").selectOption({ label: "Link" })
    await reddit.getByLabel("Link (for a link post)").fill("https://example.org/sale")
    // What the composer sends: the network's object as the contract names it, blanks left out.
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/posts") && r.method() === "POST")
    await page.getByLabel(words.en.atTime).check()
    await page.getByRole("button", { name: words.en.schedule, exact: true }).click()
    expect((await sent).postDataJSON().reddit).toEqual({
      subreddit: "typescript",
      title: "A sale",
      kind: "link",
      url: "https://example.org/sale"
    })
    await page.locator(".sent").waitFor()
    expect((await postsOf(key)).map((p) => p.content)).toContain("Link post")
    await page.close()
  }, 60_000)

  it("desktop ja: Google Business's nested event and button, YouTube's tags: each network's form in the page's language, sent as the contract names it", async () => {
    const { workspaceId, page } = await setUp("desktop", "ja")
    await addAccount(host, workspaceId, "google_business")
    await addAccount(host, workspaceId, "youtube")
    await page.reload()
    await page.getByRole("checkbox", { name: /^Google/ }).check()
    await page.getByRole("checkbox", { name: /^YouTube/ }).check()
    await page.getByLabel(words.ja.text, { exact: true }).fill("春のセール")
    const google = page.locator("fieldset.options[data-platform=google_business]")
    const groups = () => google.locator("fieldset.option-group legend").allTextContents()
    // Each field only where it applies: an offer's fields on an OFFER (and no button there), none on an update.
    expect(await groups()).toEqual(["投稿の下のボタン"])
    await google.getByLabel("投稿の種類").selectOption({ label: "特典" })
    await expect.poll(groups).toEqual(["イベントまたは特典", "特典"])
    await google.getByLabel("クーポンコード").fill("SPRING")
    await expectAccessible(page)
    await google.getByLabel("投稿の種類").selectOption({ label: "最新情報" })
    await expect.poll(groups).toEqual(["投稿の下のボタン"])
    await google.getByLabel("投稿の種類").selectOption({ label: "イベント" })
    await expect.poll(groups).toEqual(["投稿の下のボタン", "イベントまたは特典"])
    const event = google.getByRole("group", { name: "イベントまたは特典" })
    await event.getByLabel(/^タイトル/).fill("春のセール")
    expect(await event.getByLabel(/^開始日/).getAttribute("type")).toBe("date")
    await event.getByLabel(/^開始日/).fill("2027-04-01")
    await event.getByLabel(/^終了日/).fill("2027-04-07")
    const button = google.getByRole("group", { name: "投稿の下のボタン" })
    await button.getByLabel(/^ボタンの種類/).selectOption({ label: "詳細" })
    await button.getByLabel(/^ボタンのリンク/).fill("https://example.org/sale")
    const youtube = page.locator("fieldset.options[data-platform=youtube]")
    await youtube.getByLabel("タグ (カンマ区切り)").fill("sale, spring,")
    await youtube.getByLabel("子ども向け").check()
    await expectAccessible(page)
    await screenshot(page, "compose-google-youtube-ja")
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/posts") && r.method() === "POST")
    await page.getByRole("button", { name: words.ja.publishNow, exact: true }).click()
    const body = (await sent).postDataJSON()
    expect(body.googleBusiness).toEqual({
      topicType: "EVENT",
      callToAction: { actionType: "LEARN_MORE", url: "https://example.org/sale" },
      event: { title: "春のセール", startDate: "2027-04-01", endDate: "2027-04-07" }
    })
    // The coupon typed while it was an OFFER stays in the draft but is not sent on an EVENT.
    expect(body.googleBusiness.offer).toBeUndefined()
    expect(body.youtube).toEqual({ madeForKids: true, tags: ["sale", "spring"] })
    await page.close()
  }, 60_000)
  it("desktop en: the draft is kept across a reload (an expired upload dropped with a note), discarded on demand, forgotten after a send", async () => {
    const { key, workspaceId, page } = await setUp("desktop", "en")
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#26a" } })
      .png()
      .toBuffer()
    for (const name of ["kept.png", "old.png"])
      await page.locator("input[type=file]").setInputFiles({ name, mimeType: "image/png", buffer: image })
    await page.getByRole("img", { name: "Preview of old.png" }).waitFor()
    await page.getByLabel(words.en.text, { exact: true }).fill("Kept while away")
    await page.getByLabel(/^First comment/).fill("More below")
    await page.getByLabel(words.en.atTime).check()
    // One upload's expiry moved into the past, as if the draft had waited more than 7 days: only once the
    // last change (the schedule choice) is kept, or the page's own keeping would write over the edit.
    const keptNow = () =>
      page.evaluate(() => {
        const storage = (globalThis as any).localStorage
        const name = Object.keys(storage).find((k) => k.startsWith("herald.draft."))
        const kept = name === undefined ? null : JSON.parse(storage.getItem(name))
        return kept === null ? "" : `${kept.draft.mode}|${kept.draft.firstComment}|${kept.draft.media.length}`
      })
    await expect.poll(keptNow).toBe("schedule|More below|2")
    // Kept under the workspace and the person, so another person on this browser has their own.
    expect(await page.evaluate("Object.keys(localStorage).join()")).toMatch(
      new RegExp(`^herald\\.draft\\.${workspaceId}:[^,]+$`)
    )
    await page.evaluate(() => {
      const storage = (globalThis as any).localStorage
      const name = Object.keys(storage).find((k) => k.startsWith("herald.draft."))!
      const kept = JSON.parse(storage.getItem(name))
      kept.draft.media[1].expiresAt = "2020-01-01T00:00:00Z"
      storage.setItem(name, JSON.stringify(kept))
    })
    await page.reload()
    const notice = page.locator(".restored")
    await notice.getByText("Draft restored").waitFor()
    expect(await notice.textContent()).toContain("1 expired upload(s) were removed")
    expect(await page.getByLabel(words.en.text, { exact: true }).inputValue()).toBe("Kept while away")
    expect(await page.getByLabel(/^First comment/).inputValue()).toBe("More below")
    expect(await page.getByLabel(words.en.atTime).isChecked()).toBe(true)
    await page.getByRole("img", { name: "Preview of kept.png" }).waitFor()
    expect(await page.getByRole("img", { name: "Preview of old.png" }).count()).toBe(0)
    await expectAccessible(page)
    // Discard empties the form and what was kept; a new draft is kept again, and a send forgets it.
    await notice.getByRole("button", { name: "Discard" }).click()
    expect(await page.getByLabel(words.en.text, { exact: true }).inputValue()).toBe("")
    expect(await page.evaluate("Object.keys(localStorage).join()")).not.toContain("herald.draft.")
    await page.getByLabel(words.en.text, { exact: true }).fill("Sent at last")
    await expect.poll(() => page.evaluate("JSON.stringify(localStorage)")).toContain("Sent at last")
    await page.getByRole("button", { name: words.en.publishNow, exact: true }).click()
    await page.locator(".sent").waitFor()
    expect((await postsOf(key)).map((p) => p.content)).toContain("Sent at last")
    expect(await page.evaluate("Object.keys(localStorage).join()")).not.toContain("herald.draft.")
    await page.reload()
    await page.getByLabel(words.en.text, { exact: true }).waitFor()
    expect(await page.locator(".restored").count()).toBe(0)
    await page.close()
  }, 60_000)
  it("desktop en: X gets its own media (one of the two uploads) and its own thread; the stored post keeps both overrides", async () => {
    const { key, workspaceId, page } = await setUp("desktop", "en")
    await addAccount(host, workspaceId, "x")
    await page.reload()
    await page.getByRole("checkbox", { name: /Sandbox/ }).check()
    await page.getByRole("checkbox", { name: /^X/ }).check()
    for (const [name, background] of [
      ["wide.png", "#a62"],
      ["square.png", "#2a6"]
    ] as const)
      await page.locator("input[type=file]").setInputFiles({
        name,
        mimeType: "image/png",
        buffer: await sharp({ create: { width: 64, height: 64, channels: 3, background } })
          .png()
          .toBuffer()
      })
    await page.getByRole("img", { name: "Preview of square.png" }).waitFor()
    await page.getByLabel(words.en.text, { exact: true }).fill("Two pictures, one on X")
    await page.getByRole("button", { name: "Add a reply" }).click()
    await page.getByLabel("Reply 1", { exact: true }).fill("Everywhere else")
    await page.getByLabel("Different media on X").check()
    const xMedia = page.getByRole("group", { name: /^Media on X/ })
    await xMedia.getByRole("checkbox", { name: /wide\.png/ }).uncheck()
    await page.getByLabel("Different thread on X").check()
    await page.getByRole("textbox", { name: "Reply 1 on X" }).fill("Only on X")
    await expectAccessible(page)
    await page.getByRole("button", { name: words.en.publishNow, exact: true }).click()
    await page.locator(".sent").waitFor()
    const post = (await postsOf(key)).find((p) => p.content === "Two pictures, one on X")
    expect(post.mediaIds).toHaveLength(2)
    expect(post.thread).toEqual(["Everywhere else"])
    expect(post.overrides.x).toEqual({ mediaIds: [post.mediaIds[1]], thread: ["Only on X"] })
    expect(post.overrides.sandbox).toBeUndefined()
    await page.close()
  }, 60_000)
})
