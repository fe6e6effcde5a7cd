import sharp from "sharp"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { addAccount, connectSandbox, uniqueEmail } from "../support/flows.ts"
import { chromiumAvailable, expectAccessible, followNav, keepScreen, launch, mailTo, publishDue } from "./browser.ts"

const viewports = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 }
} as const
type Device = keyof typeof viewports
type Lang = "en" | "ja"

const words = {
  en: {
    claim: "Claim workspace",
    signIn: "Sign in",
    email: "E-mail",
    send: "Send me a link",
    sent: "Check your inbox",
    complete: "Sign in to Herald",
    approve: "Approve",
    undo: "Undo",
    undone: "Undone",
    reject: "Reject",
    reason: "Reason for the agent (optional)",
    confirmReject: "Reject this post",
    empty: "Nothing is waiting.",
    signOut: "Sign out",
    ago: /minute|now/,
    history: "History",
    status: "Status",
    account: "Account",
    show: "Show",
    rejected: "rejected",
    cancelled: "cancelled",
    published: "published",
    hookUrl: "Endpoint URL",
    addHook: "Add webhook",
    test: "Send a test event",
    disable: "Disable",
    enable: "Enable",
    del: "Delete",
    redeliver: "Redeliver",
    redelivered: "Sent again.",
    saveTypes: "Save event types",
    typesSome: "Event types: 1 chosen",
    none: "No webhooks."
  },
  ja: {
    claim: "受け取る",
    signIn: "サインイン",
    email: "メールアドレス",
    send: "リンクを送る",
    sent: "受信箱を確認してください",
    complete: "Herald にサインイン",
    approve: "承認",
    undo: "元に戻す",
    undone: "元に戻しました",
    reject: "却下",
    reason: "",
    confirmReject: "",
    empty: "",
    signOut: "サインアウト",
    ago: /分|今/,
    history: "履歴",
    status: "状態",
    account: "アカウント",
    show: "表示",
    rejected: "却下",
    cancelled: "取り消し",
    published: "投稿済み",
    hookUrl: "エンドポイント URL",
    addHook: "Webhook を追加",
    test: "テストイベントを送る",
    disable: "無効にする",
    enable: "有効にする",
    del: "削除",
    redeliver: "再配信",
    redelivered: "再送しました。",
    saveTypes: "イベントの種類を保存",
    typesSome: "イベントの種類: 1 件を選択",
    none: "Webhook はありません。"
  }
} as const

describe.runIf(chromiumAvailable)("the people's app, second wave (identity, sign-in, approvals, mobile)", () => {
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

  const open = async (device: Device, lang: Lang) => {
    const page = await browser.newPage({
      viewport: viewports[device],
      ...(device === "mobile" ? { isMobile: true, hasTouch: true } : {}),
      locale: lang === "ja" ? "ja-JP" : "en-US",
      extraHTTPHeaders: { "accept-language": lang === "ja" ? "ja,en;q=0.5" : "en-US,en;q=0.8" }
    })
    page.on("pageerror", (error) => {
      throw error
    })
    return page
  }

  /** A workspace in `lang`, claimed in the browser, with a sandbox account and its agent's key. */
  const setUp = async (device: Device, lang: Lang) => {
    const email = uniqueEmail()
    const reply = await call(host, "POST", "/signup", { body: { email, agentName: "Test agent", locale: lang } })
    expect(reply.status).toBe(201)
    const key = reply.body.apiKey as string
    const accountId = await connectSandbox(host, key)
    const page = await open(device, lang)
    const mail = await mailTo(host, email, /\/claim\?token=/)
    await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail.text)![0]))
    await expectAccessible(page)
    await page.getByRole("button", { name: words[lang].claim }).click()
    await page.waitForURL("**/app")
    return { email, key, accountId, page, workspaceId: reply.body.workspace.id as string }
  }

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: every page carries the name, mark and favicon; sign-in and its follow-ups speak ${lang}`, async () => {
        const { email, page } = await setUp(device, lang)
        const w = words[lang]
        await page.locator("main h1").waitFor()
        expect(await page.locator("header .brand").textContent()).toContain("Herald")
        expect(await page.locator("header .brand svg").count()).toBe(1)
        expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg")
        const icon = await page.request.get(`${host.origin}/favicon.svg`)
        expect(icon.status()).toBe(200)
        expect(icon.headers()["content-type"]).toContain("image/svg+xml")
        await expectAccessible(page)

        // Signing out lands on the sign-in page in the workspace's language.
        await page.getByRole("button", { name: w.signOut }).click()
        await page.waitForURL("**/signin**")
        expect(await page.getAttribute("html", "lang")).toBe(lang)
        expect(await page.locator("main").count()).toBe(1)
        expect(await page.locator("header.brand svg").count()).toBe(1)
        expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg")
        await page.getByRole("heading", { name: w.signIn }).waitFor()
        await expectAccessible(page)
        await keepScreen(page, `signin-${device}-${lang}`)
        await page.getByLabel(w.email).fill(email)
        await page.getByRole("button", { name: w.send }).click()
        await page.getByRole("heading", { name: w.sent }).waitFor()
        expect(await page.getAttribute("html", "lang")).toBe(lang)
        await expectAccessible(page)

        // The e-mailed link opens in the workspace's language even in a browser that asks for the other one.
        const mail = await mailTo(host, email, /\/signin\/complete\?token=/)
        const other = await open(device, lang === "ja" ? "en" : "ja")
        await other.goto(host.local(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(mail.text)![0]))
        expect(await other.getAttribute("html", "lang")).toBe(lang)
        await expectAccessible(other)
        await other.getByRole("button", { name: w.complete }).click()
        await other.waitForURL("**/app")
        // The link used again: the error page speaks the workspace's language too.
        await other.goto(host.local(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(mail.text)![0]))
        await other.getByRole("button", { name: w.complete }).click()
        await other.locator("main h1").waitFor()
        expect(await other.getAttribute("html", "lang")).toBe(lang)
        expect(await other.locator("main").textContent()).toMatch(lang === "ja" ? /無効/ : /invalid, already used/)
        await expectAccessible(other)
        await other.close()
        await page.close()
      }, 90_000)

  it("/signin with no workspace known follows the browser's Accept-Language", async () => {
    const page = await open("desktop", "ja")
    await page.goto(`${host.origin}/signin`)
    expect(await page.getAttribute("html", "lang")).toBe("ja")
    await page.getByRole("heading", { name: "サインイン" }).waitFor()
    await page.close()
  }, 30_000)

  it("a revoked key's row passes colour contrast", async () => {
    const { key, page } = await setUp("desktop", "en")
    expect(key).toMatch(/^hrld_/)
    page.on("dialog", (dialog) => void dialog.accept())
    await page.goto(`${host.origin}/app/keys`)
    await page.getByLabel("Key name").fill("old key")
    await page.getByRole("button", { name: "Create key" }).click()
    await page.getByRole("button", { name: "Revoke old key" }).click()
    await page.locator("li.row.revoked").waitFor()
    await expectAccessible(page)
    await keepScreen(page, "keys-revoked")
    await page.close()
  }, 60_000)

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: a card is led by the post, says who asked and when, and approve can be undone`, async () => {
        const { key, accountId, page } = await setUp(device, lang)
        const w = words[lang]
        const content = `Launch day ${lang} ${device}: our spring collection is out, with free shipping all week.`
        const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#2a6" } })
          .png()
          .toBuffer()
        const form = new FormData()
        form.append("file", new Blob([png]), "picture.png")
        const uploaded = (await (
          await fetch(`${host.base}/media`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
        ).json()) as { media: { id: string } }
        const asked = await call(host, "POST", "/posts", {
          key,
          body: { accountIds: [accountId], content, mediaIds: [uploaded.media.id] }
        })
        const id = asked.body.post.id as string
        await page.clock.install()
        await page.reload()
        const card = page.locator("article.post", { hasText: content })
        await card.waitFor()
        expect(await card.locator("h2").textContent()).toBe(content)
        expect(await card.locator(".asked").textContent()).toMatch(w.ago)
        expect(await card.locator(".asked time").getAttribute("datetime")).toBe(asked.body.post.createdAt)
        expect(await card.locator(".lengths li").first().textContent()).toMatch(/\d+/)
        const approve = card.getByRole("button", { name: w.approve, exact: true })
        // The first Approve is on the first screen, and the header is small.
        const box = (await approve.boundingBox())!
        expect(box.y + box.height).toBeLessThanOrEqual(viewports[device].height)
        const header = (await page.locator("body > header").boundingBox())!
        expect(header.height).toBeLessThan(viewports[device].height / 8)
        if (device === "mobile") expect(await page.locator("#shortcuts").isVisible()).toBe(false)
        // The picture is large enough to judge (not a 112 px thumbnail), and opens larger.
        const picture = card.locator(".media img")
        // Polled from here, not waitForFunction: its string predicate is compiled in the page, which the CSP forbids.
        await expect
          .poll(() =>
            page
              .locator(".media img")
              .first()
              .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
          )
          .toBeGreaterThan(0)
        const small = (await picture.boundingBox())!
        expect(small.height).toBeGreaterThanOrEqual(170)
        const toggle = card.locator(".media-toggle")
        await toggle.click()
        expect(await toggle.getAttribute("aria-expanded")).toBe("true")
        expect((await picture.boundingBox())!.width).toBeGreaterThan(small.width)
        await expectAccessible(page)
        await toggle.click()
        await expectAccessible(page)
        await keepScreen(page, `queue-${device}-${lang}`)

        await approve.click()
        await page.getByRole("button", { name: w.undo }).waitFor()
        expect(await card.isVisible()).toBe(false)
        await expectAccessible(page)
        await page.getByRole("button", { name: w.undo }).click()
        await page.getByText(w.undone).waitFor()
        expect(await card.isVisible()).toBe(true)
        await page.clock.runFor(10_000)
        expect((await call(host, "GET", `/posts/${id}`, { key })).body.post.status).toBe("needs_approval")

        // Approved for good: the decision goes once the window ends.
        await approve.click()
        await page.clock.runFor(5_000)
        await page.locator(".empty").waitFor()
        // Approved with no time: it goes out at once (the test host runs no worker, so it stays on its way).
        expect(["scheduled", "publishing"]).toContain(
          (await call(host, "GET", `/posts/${id}`, { key })).body.post.status
        )
        await page.close()
      }, 90_000)

  it("reject is a secondary action with a roomy reason box; the agent reads the reason after the undo window", async () => {
    const { key, accountId, page } = await setUp("desktop", "en")
    const id = (await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "not today" } }))
      .body.post.id as string
    await page.clock.install()
    await page.reload()
    const card = page.locator("article.post", { hasText: "not today" })
    await card.getByRole("button", { name: "Reject", exact: true }).click()
    const reason = card.getByLabel(words.en.reason)
    expect((await reason.boundingBox())!.width).toBeGreaterThan(500)
    await reason.fill("Wrong product name.")
    const confirm = card.getByRole("button", { name: words.en.confirmReject })
    // Not styled as the primary (filled dark) button.
    expect(
      await page.evaluate(
        "getComputedStyle(document.querySelector('form.reject:not([hidden]) button.danger')).backgroundColor"
      )
    ).toBe("rgb(255, 255, 255)")
    await expectAccessible(page)
    await keepScreen(page, "queue-reject")
    await confirm.click()
    await page.getByRole("button", { name: "Undo" }).waitFor()
    expect((await call(host, "GET", `/posts/${id}`, { key })).status).toBe(200)
    await page.clock.runFor(5_000)
    await page.getByText(words.en.empty).waitFor()
    const events = await call(host, "GET", `/events?postId=${id}&types=post.rejected`, { key })
    expect(events.body.events[0].data.reason).toBe("Wrong product name.")
    await page.close()
  }, 60_000)

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: history shows published, rejected and cancelled posts with reasons, filtered by status and account`, async () => {
        const { key, accountId, page, workspaceId } = await setUp(device, lang)
        const w = words[lang]
        const other = await addAccount(host, workspaceId, "bluesky")
        const ask = (content: string, accountIds: Array<string>, extra: Record<string, unknown> = {}) =>
          call(host, "POST", "/posts", { key, body: { accountIds, content, ...extra } }).then(
            (r) => r.body.post.id as string
          )
        const published = await ask("went out fine", [accountId])
        const rejected = await ask("turned down", [accountId])
        const cancelled = await ask("called off", [other], {
          scheduledFor: new Date(Date.now() + 86_400_000).toISOString()
        })
        const csrf = await page.locator('meta[name="csrf-token"]').getAttribute("content")
        const approved = await page.request.post(`${host.origin}/api/v1/posts/${published}/approve`, {
          headers: { "x-csrf-token": csrf!, "content-type": "application/json" },
          data: {}
        })
        expect(approved.status()).toBe(200)
        // The host is shared: other tests' approved posts may go out in the same pass.
        expect(await publishDue(host)).toBeGreaterThanOrEqual(1)
        expect((await call(host, "GET", `/posts/${published}`, { key })).body.post.status).toBe("published")
        const r = await call(host, "POST", `/posts/${rejected}/reject`, { key, body: { reason: "Off brand." } })
        expect(r.status).toBe(200)
        expect((await call(host, "POST", `/posts/${cancelled}/cancel`, { key })).status).toBe(200)

        await followNav(page, w.history)
        await page.waitForURL("**/app/posts")
        const card = (text: string) => page.locator("article.post", { hasText: text })
        await card("turned down").waitFor()
        expect(await card("went out fine").textContent()).toContain(w.published)
        expect(await card("turned down").textContent()).toContain(w.rejected)
        expect(await card("turned down").locator(".reason").textContent()).toContain("Off brand.")
        expect(await card("called off").textContent()).toContain(w.cancelled)
        await expectAccessible(page)
        await keepScreen(page, `history-${device}-${lang}`)

        // By status: only the rejected one.
        await page.getByLabel(w.status).selectOption("rejected")
        await page.getByRole("button", { name: w.show }).click()
        await page.waitForURL("**/app/posts?status=rejected")
        await card("called off").waitFor({ state: "detached" })
        expect(await page.locator("article.post").count()).toBe(1)
        expect(await card("turned down").count()).toBe(1)

        // By account: the cancelled post went only to the other account.
        await page.getByLabel(w.status).selectOption("")
        await page.getByLabel(w.account).selectOption(accountId)
        await page.getByRole("button", { name: w.show }).click()
        await card("went out fine").waitFor()
        await card("turned down").waitFor()
        expect(await card("called off").count()).toBe(0)
        await page.getByLabel(w.account).selectOption(other)
        await page.getByRole("button", { name: w.show }).click()
        await card("called off").waitFor()
        expect(await page.locator("article.post").count()).toBe(1)
        await expectAccessible(page)
        await page.close()
      }, 90_000)

  for (const device of ["desktop", "mobile"] as const)
    for (const lang of ["en", "ja"] as const)
      it(`${device} ${lang}: webhooks: test, the receiver's failing answer, redeliver, event types, disable and delete`, async () => {
        // A receiver written to Standard Webhooks' terms: it answers 503 with a body until it is told to recover.
        let healthy = false
        const received: Array<string> = []
        const receiver = createServer((req, res) => {
          let body = ""
          req.on("data", (c) => (body += c))
          req.on("end", () => {
            received.push(body)
            res.writeHead(healthy ? 204 : 503, { "content-type": "text/plain" })
            res.end(healthy ? undefined : "busy, try later")
          })
        })
        await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r))
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
        const { page } = await setUp(device, lang)
        const w = words[lang]
        page.on("dialog", (dialog) => void dialog.accept())
        await page.goto(`${host.origin}/app/keys`)
        await page.getByLabel(w.hookUrl).fill(url)
        await page.getByRole("button", { name: w.addHook }).click()
        const card = page.locator("article.hook", { hasText: url })
        await card.waitFor()

        await card.getByRole("button", { name: w.test }).click()
        await card.locator("li.delivery").first().waitFor()
        expect(received.length).toBe(1)
        expect(await card.locator("li.delivery").first().textContent()).toContain("503")
        await expectAccessible(page)
        await keepScreen(page, `webhooks-${device}-${lang}`)

        healthy = true
        await card.getByRole("button", { name: w.redeliver }).first().click()
        // Its own words: the test event's message may still be showing while the list is drawn again.
        await page.locator("#status.shown", { hasText: w.redelivered }).waitFor()
        const hooks = async () =>
          (await (await page.request.get(`${host.origin}/api/v1/webhooks`)).json()).webhooks as Array<{
            enabled: boolean
            eventTypes: Array<string>
          }>

        // Event types: one chosen, saved through PATCH.
        await card.locator("summary").click()
        await card.getByRole("checkbox", { name: "post.published" }).check()
        await card.getByRole("button", { name: w.saveTypes }).click()
        await card.locator("summary", { hasText: w.typesSome }).waitFor()

        await card.getByRole("button", { name: w.disable }).click()
        await card.getByRole("button", { name: w.enable }).waitFor()
        expect(await hooks()).toMatchObject([{ enabled: false, eventTypes: ["post.published"] }])
        await expectAccessible(page)
        await card.getByRole("button", { name: w.del }).click()
        await page.getByText(w.none).waitFor()
        await page.close()
        await new Promise((r) => receiver.close(r))
      }, 90_000)

  it("a second decision sends the first at once; the second stays hidden through the redraw and its undo brings it back", async () => {
    const { key, accountId, page } = await setUp("desktop", "en")
    const ask = (content: string) =>
      call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content } }).then(
        (r) => r.body.post.id as string
      )
    const first = await ask("first to approve")
    const second = await ask("second to reject")
    await page.clock.install()
    await page.reload()
    const card = (text: string) => page.locator("article.post", { hasText: text })
    await card("second to reject").waitFor()
    await card("first to approve").getByRole("button", { name: "Approve", exact: true }).click()
    await card("second to reject").getByRole("button", { name: "Reject", exact: true }).click()
    await card("second to reject").getByRole("button", { name: "Reject this post" }).click()
    // The approval went out without waiting; the queue was drawn again from the server without either card.
    await page.getByText("Approved.", { exact: true }).waitFor()
    await card("first to approve").waitFor({ state: "detached" })
    expect((await call(host, "GET", `/posts/${first}`, { key })).body.post.status).not.toBe("needs_approval")
    expect(await card("second to reject").isVisible()).toBe(false)
    // Keyboard alone: "u" undoes.
    await page.locator("body").press("u")
    await card("second to reject").waitFor()
    await page.clock.runFor(10_000)
    expect((await call(host, "GET", `/posts/${second}`, { key })).body.post.status).toBe("needs_approval")
    await expectAccessible(page)
    await page.close()
  }, 60_000)
})
