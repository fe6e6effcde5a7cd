import { existsSync } from "node:fs"
import { Effect } from "effect"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, signUp } from "../support/flows.ts"

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const available = existsSync(executablePath)
if (!available && process.env.CI) throw new Error(`Chromium is missing at ${executablePath}: .ci/run installs Debian's chromium`)
if (!available) console.warn(`\n*** Chromium not found at ${executablePath}: the web page tests are skipped (apt-get install chromium) ***\n`)

describe.runIf(available)("the web pages in a real Chromium", () => {
  let host: HttpHost
  let browser: Browser
  beforeAll(async () => {
    host = await startHttpHost()
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  it("the owner claims the workspace from the e-mailed link, approves the agent's post and makes a key", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const created = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "Hello from the agent" } })
    expect(created.body.post.status).toBe("needs_approval")

    const mail = await host.run(Effect.map(SentMail, (s) => s.last(email)))
    const link = /https?:\/\/\S+\/claim\?token=\S+/.exec(mail!.text)![0]
    const page = await browser.newPage()
    await page.goto(host.local(link))
    await page.getByRole("button", { name: "Claim workspace" }).click()
    await page.waitForURL("**/app")
    const post = page.locator(".post", { hasText: "Hello from the agent" })
    await post.waitFor()
    expect(await post.textContent()).toContain("by Test agent")
    await post.getByRole("button", { name: "Approve" }).click()
    await page.getByText("Nothing is waiting.").waitFor()

    const after = await call(host, "GET", `/posts/${created.body.post.id}`, { key })
    expect(["publishing", "published"]).toContain(after.body.post.status)

    await page.getByPlaceholder("Key name").fill("Scheduler script")
    await page.getByRole("button", { name: "Create key" }).click()
    const secret = await page.locator("#secret code").textContent()
    expect(secret).toMatch(/^hrld_/)
    expect((await call(host, "GET", "/accounts", { key: secret! })).status).toBe(200)
    // A webhook from the app: its signing secret shown once, the endpoint listed with its deliveries.
    await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hooks")
    await page.getByRole("button", { name: "Add webhook" }).click()
    expect(await page.locator("#hooksecret code").textContent()).toMatch(/^whsec_/)
    await page.locator("#webhooks").getByText("http://127.0.0.1:9/hooks").waitFor()
    await page.screenshot({ path: "/tmp/herald-app.png", fullPage: true })
    await page.close()
  }, 60_000)

  it("the app, the sign-in pages and the API docs run under their Content-Security-Policy without a violation", async () => {
    const { email } = await signUp(host)
    const page = await browser.newPage()
    const violations: Array<string> = []
    page.on("console", (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    const claimMail = await host.run(Effect.map(SentMail, (s) => s.last(email)))
    await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(claimMail!.text)![0]))
    await page.getByRole("button", { name: "Claim workspace" }).click()
    await page.waitForURL("**/app")
    await page.getByText("Nothing is waiting.").waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL("**/signin")
    await page.getByLabel("E-mail").fill(email)
    await page.getByRole("button", { name: "Send me a link" }).click()
    await page.getByText("Check your inbox").waitFor()
    let signInMail: { text: string } | undefined
    for (let i = 0; i < 200 && signInMail === undefined; i++) {
      signInMail = await host.run(Effect.map(SentMail, (s) => s.all().find((m) => m.to === email && m.text.includes("/signin/complete"))))
      if (signInMail === undefined) await new Promise((r) => setTimeout(r, 10))
    }
    await page.goto(host.local(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(signInMail!.text)![0]))
    await page.getByRole("button", { name: "Sign in to Herald" }).click()
    await page.waitForURL("**/app")
    await page.getByText("Nothing is waiting.").waitFor()
    await page.goto(`${host.base}/docs`)
    await page.getByText("Herald API").first().waitFor()
    expect(violations).toEqual([])
    await page.close()
  }, 60_000)

  it("a used claim link shows a readable error page, not a stack trace", async () => {
    const { email } = await signUp(host)
    const mail = await host.run(Effect.map(SentMail, (s) => s.last(email)))
    const link = host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail!.text)![0])
    const page = await browser.newPage()
    await page.goto(link)
    await page.getByRole("button", { name: "Claim workspace" }).click()
    await page.waitForURL("**/app")
    const again = await page.goto(link)
    expect(again!.status()).toBe(400)
    expect(await page.textContent("body")).toContain("invalid, already used or expired")
    await page.close()
  }, 60_000)
})
