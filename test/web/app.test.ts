import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { startSession } from "../../application/usecases/sessions.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, signUp } from "../support/flows.ts"
import { chromiumAvailable, claimInBrowser, expectAccessible, launch, screenshot, transferredBytes } from "./browser.ts"

/** Each page of the app: axe-clean, under 100 KB over the wire; its weight is logged for the README. */
const checkPage = async (page: Page, name: string) => {
  await expectAccessible(page)
  await screenshot(page, name)
  const bytes = await transferredBytes(page)
  console.log(`page weight ${name}: ${bytes} bytes`)
  expect(bytes).toBeLessThan(100 * 1024)
}

describe.runIf(chromiumAvailable)("the people's app in a real Chromium", () => {
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

  /** A claimed workspace with a sandbox account, its agent's key, and a signed-in page. */
  const setUp = async (options: { readonly viewport?: { width: number; height: number } } = {}) => {
    const { email, key, workspaceId } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const page = await browser.newPage(
      options.viewport ? { viewport: options.viewport, isMobile: true, hasTouch: true } : {}
    )
    page.on("dialog", (dialog) => void dialog.accept())
    // A script error fails the test that hits it.
    page.on("pageerror", (error) => {
      throw error
    })
    await claimInBrowser(host, page, email)
    return { email, key, workspaceId, accountId, page }
  }
  const ask = (key: string, body: Record<string, unknown>) =>
    call(host, "POST", "/posts", { key, body }).then((r) => r.body.post.id as string)
  const postOf = (key: string, id: string) => call(host, "GET", `/posts/${id}`, { key })

  it("select several and reject them together, with a reason the agent reads in its events", async () => {
    const { key, accountId, page } = await setUp()
    const first = await ask(key, { accountIds: [accountId], content: "first of three" })
    const second = await ask(key, { accountIds: [accountId], content: "second of three" })
    const third = await ask(key, { accountIds: [accountId], content: "third of three" })
    await page.reload()
    await page.locator("article.post", { hasText: "third of three" }).waitFor()
    await page.getByRole("checkbox", { name: /first of three/ }).check()
    await page.getByRole("checkbox", { name: /second of three/ }).check()
    expect(await page.locator("#selected-count").textContent()).toBe("2 selected")
    await page.getByRole("button", { name: "Reject selected" }).click()
    await page.getByText("2 done, 0 not done.").waitFor()
    expect(await page.locator("article.post").count()).toBe(1)
    expect((await postOf(key, first)).status).toBe(404)
    expect((await postOf(key, second)).status).toBe(404)

    // One post rejected on its own with a reason: the agent reads it in the post.rejected event.
    const article = page.locator("article.post", { hasText: "third of three" })
    await article.getByRole("button", { name: "Reject" }).click()
    await article.getByLabel("Reason for the agent (optional)").fill("Not on a Sunday, please.")
    await article.getByRole("button", { name: "Reject this post" }).click()
    await page.getByText("Nothing is waiting.").waitFor()
    const events = await call(host, "GET", `/events?postId=${third}&types=post.rejected`, { key })
    expect(events.body.events[0].data.reason).toBe("Not on a Sunday, please.")
    await page.close()
  }, 60_000)

  it("an approval is refused when the post changed after the page showed it, and the new version is shown", async () => {
    const { key, accountId, page } = await setUp()
    const id = await ask(key, {
      accountIds: [accountId],
      content: "moving target",
      scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString()
    })
    await page.reload()
    const article = page.locator("article.post", { hasText: "moving target" })
    await article.waitFor()
    const shownVersion = await article.getAttribute("data-version")
    // The agent moves it while the page is open.
    const moved = new Date(Date.now() + 5 * 86_400_000).toISOString()
    expect((await call(host, "POST", `/posts/${id}/reschedule`, { key, body: { scheduledFor: moved } })).status).toBe(
      200
    )
    await article.getByRole("button", { name: "Approve" }).click()
    await article.getByRole("alert").filter({ hasText: "changed after you loaded the page" }).waitFor()
    expect(await article.getAttribute("data-version")).not.toBe(shownVersion)
    expect((await postOf(key, id)).body.post.status).toBe("needs_approval")
    await checkPage(page, "queue-post-changed")
    // Approving the version now shown goes through.
    await article.getByRole("button", { name: "Approve" }).click()
    await page.getByText("Nothing is waiting.").waitFor()
    expect((await postOf(key, id)).body.post.status).toBe("scheduled")
    await page.close()
  }, 60_000)

  it("HTML and script an agent posts are shown as text on every page, never run", async () => {
    const { key, accountId, page } = await setUp()
    const hostile = `<img src=x onerror="window.__owned=1"><script>window.__owned=2</script>"'&amp;`
    await ask(key, {
      accountIds: [accountId],
      content: hostile,
      firstComment: "<b>bold?</b>",
      thread: ["</li><li>injected"]
    })
    await call(host, "POST", "/keys", { key, body: { name: "<i>x</i>" } })
    await page.reload()
    const article = page.locator("article.post").first()
    await article.waitFor()
    expect(await article.locator(".network .text").textContent()).toBe(hostile)
    expect(await article.locator(".comment").textContent()).toBe("<b>bold?</b>")
    expect(await article.locator(".thread li").count()).toBe(1)
    expect(await page.locator(".network img, .network script, .comment b").count()).toBe(0)
    for (const path of ["/app/posts", "/app/keys"]) {
      await page.goto(`${host.origin}${path}`)
      await page.locator("main h1").waitFor()
      await page.waitForLoadState("networkidle")
    }
    await page.goto(`${host.origin}/app/posts`)
    await page.locator("article.post").first().waitFor()
    expect(await page.locator("main img[src=x], main script").count()).toBe(0)
    expect(await page.evaluate("window.__owned")).toBeUndefined()
    await page.close()
  }, 60_000)

  it("keyboard alone: move between posts, select, approve and reject", async () => {
    const { key, accountId, page } = await setUp()
    const a = await ask(key, { accountIds: [accountId], content: "keyboard one" })
    const b = await ask(key, { accountIds: [accountId], content: "keyboard two" })
    await page.reload()
    await page.locator("article.post", { hasText: "keyboard two" }).waitFor()
    await page.keyboard.press("j")
    expect(await page.evaluate("document.activeElement.dataset.id")).toBe(a)
    await page.keyboard.press("a")
    await page.locator("article.post", { hasText: "keyboard one" }).waitFor({ state: "detached" })
    // Focus moved on to the next post, which r rejects: the reason field takes the focus, Enter on its button sends it.
    expect(await page.evaluate("document.activeElement.dataset.id")).toBe(b)
    await page.keyboard.press("r")
    await page.keyboard.type("no thanks")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByText("Nothing is waiting.").waitFor()
    expect((await postOf(key, a)).body.post.status).toMatch(/publishing|published/)
    expect((await postOf(key, b)).status).toBe(404)
    // Tab reaches the navigation and every control shows its focus.
    await page.keyboard.press("Tab")
    expect(await page.evaluate("document.activeElement.tagName")).toBe("A")
    await page.close()
  }, 60_000)

  it("on a phone-sized screen the queue and every page fit the width", async () => {
    const { key, accountId, page } = await setUp({ viewport: { width: 375, height: 740 } })
    await ask(key, {
      accountIds: [accountId],
      content: "A post read on a phone, long enough to wrap over several lines of the narrow screen."
    })
    await page.reload()
    await page.locator("article.post").first().waitFor()
    for (const [path, name] of [
      ["/app", "phone-queue"],
      ["/app/posts", "phone-posts"],
      ["/app/accounts", "phone-accounts"],
      ["/app/keys", "phone-keys"],
      ["/app/settings", "phone-settings"]
    ] as const) {
      await page.goto(`${host.origin}${path}`)
      await page.locator("main h1").waitFor()
      await page.waitForLoadState("networkidle")
      expect(await page.evaluate("document.documentElement.scrollWidth"), path).toBeLessThanOrEqual(375)
      await checkPage(page, name)
    }
    await page.close()
  }, 90_000)

  it("an account that lost its connection is shown first, with a reconnect button that goes through the network", async () => {
    const { key, workspaceId, accountId, page } = await setUp()
    await host.run(Effect.flatMap(AccountRepo, (repo) => repo.setStatus(workspaceId, accountId, "needs_reconnection")))
    await page.goto(`${host.origin}/app/accounts`)
    await page.getByRole("alert").filter({ hasText: "lost their connection" }).waitFor()
    await checkPage(page, "accounts-reconnect")
    // The network's page is at Herald's public URL, not where the test host listens: send the browser on there.
    await page.route(
      (url) => url.pathname.startsWith("/connect/sandbox/") && url.origin !== host.origin,
      (route) => route.fulfill({ status: 302, headers: { location: host.local(route.request().url()) } })
    )
    await page.getByRole("button", { name: /^Reconnect Sandbox/ }).click()
    // Herald's own page names the workspace the account goes to before the network's.
    await page.getByRole("button", { name: "Continue to Sandbox" }).click()
    await page.getByText("Account connected").waitFor()
    const accounts = (await call(host, "GET", "/accounts", { key })).body.accounts as Array<{ status: string }>
    expect(accounts.some((a) => a.status === "connected")).toBe(true)
    // Disconnecting the broken one removes it.
    await page.goto(`${host.origin}/app/accounts`)
    await page
      .locator("li.broken")
      .getByRole("button", { name: /Disconnect/ })
      .click()
    await page.locator("li.broken").waitFor({ state: "detached" })
    expect(
      ((await call(host, "GET", "/accounts", { key })).body.accounts as Array<{ id: string }>).map((a) => a.id)
    ).not.toContain(accountId)
    await page.close()
  }, 60_000)

  it("create a key (asks first or not), use it, and revoke it", async () => {
    const { page } = await setUp()
    await page.goto(`${host.origin}/app/keys`)
    await page.getByLabel("Key name").fill("Scheduler script")
    await page.getByLabel(/Asks first/).uncheck()
    await page.getByRole("button", { name: "Create key" }).click()
    const secret = await page.locator("#secret code").textContent()
    expect(secret).toMatch(/^hrld_/)
    expect((await call(host, "GET", "/accounts", { key: secret! })).status).toBe(200)
    const row = page.locator("#keys li", { hasText: "Scheduler script" })
    expect(await row.textContent()).toContain("posts directly")
    expect(await row.textContent()).toContain("never used")
    // The use just made shows after a reload (it is written on its own fiber).
    for (let i = 0; i < 50 && !(await row.textContent())?.includes("last used"); i++) {
      await new Promise((r) => setTimeout(r, 50))
      await page.reload()
      await row.waitFor()
    }
    expect(await row.textContent()).toContain("last used")
    await checkPage(page, "keys")
    await row.getByRole("button", { name: "Revoke Scheduler script" }).click()
    await row.getByText(/revoked/).waitFor()
    expect((await call(host, "GET", "/accounts", { key: secret! })).status).toBe(401)
    // Webhooks are managed here too: the signing secret is shown once.
    await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hooks")
    await page.getByRole("button", { name: "Add webhook" }).click()
    expect(await page.locator("#hooksecret code").textContent()).toMatch(/^whsec_/)
    await page.close()
  }, 60_000)

  it("settings: the workspace in Japanese and another time zone; another session signed out", async () => {
    const { email, key, workspaceId, accountId, page } = await setUp()
    const at = new Date(Date.now() + 30 * 86_400_000)
    at.setUTCHours(0, 0, 0, 0)
    await ask(key, { accountIds: [accountId], content: "zoned", scheduledFor: at.toISOString() })
    // The same person signed in on another browser.
    const elsewhere = await host.run(startSession(workspaceId, email))
    const asElsewhere = () =>
      fetch(`${host.base}/workspace`, { headers: { cookie: `herald_session=${elsewhere.token}` } }).then(
        (r) => r.status
      )
    expect(await asElsewhere()).toBe(200)

    await page.goto(`${host.origin}/app/settings`)
    await page.getByLabel("Name", { exact: true }).fill("Acme & Co")
    await page.getByLabel("Language").selectOption("ja")
    await page.getByLabel("Time zone").selectOption("Asia/Tokyo")
    await page.getByLabel("A digest when several arrive together").check()
    await page.getByRole("button", { name: "Save" }).click()
    // A locator, not waitForFunction: its string predicate is compiled in the page, which the CSP forbids.
    await page.locator('html[lang="ja"]').waitFor({ state: "attached" })
    await page.getByRole("heading", { name: "ワークスペース" }).waitFor()
    expect(await page.locator("#sessions li").count()).toBe(2)
    await checkPage(page, "settings-ja")
    const settings = await page.evaluate("fetch('/api/v1/workspace').then(r => r.json())")
    expect(settings).toMatchObject({
      workspace: { name: "Acme & Co", locale: "ja", timeZone: "Asia/Tokyo", approvalMail: "digest" }
    })
    await page.getByRole("button", { name: "そこからサインアウト" }).click()
    await page.locator("#sessions li").nth(1).waitFor({ state: "detached" })
    expect(await asElsewhere()).toBe(401)

    await page.goto(`${host.origin}/app`)
    // Midnight UTC is 9:00 in Tokyo.
    expect(await page.locator("article.post .goes").first().textContent()).toMatch(/9:00/)
    await page.getByRole("button", { name: "承認", exact: true }).waitFor()
    await checkPage(page, "queue-ja")
    await page.close()
  }, 60_000)
})
