import { Effect } from "effect"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, signUp } from "../support/flows.ts"
import {
  chromiumAvailable,
  claimInBrowser,
  expectAccessible,
  launch,
  mailTo,
  publishDue,
  screenshot,
  transferredBytes
} from "./browser.ts"

describe.runIf(chromiumAvailable)("the approval queue in a real Chromium", () => {
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

  it("the owner claims the workspace, sees the agent's post as the network will show it, approves it, and it is published to the sandbox", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const created = await call(host, "POST", "/posts", {
      key,
      body: {
        accountIds: [accountId],
        content: "Hello from the agent",
        thread: ["and a reply"],
        firstComment: "first!"
      }
    })
    expect(created.body.post.status).toBe("needs_approval")

    const page = await browser.newPage()
    await claimInBrowser(host, page, email)
    const post = page.locator("article.post", { hasText: "Hello from the agent" })
    await post.waitFor()
    expect(await post.locator("h2").textContent()).toBe("Hello from the agent")
    expect(await post.locator(".asked").textContent()).toContain("Asked by Test agent")
    expect(await post.locator(".network h3").textContent()).toContain("Sandbox")
    expect(await post.locator(".thread").textContent()).toContain("and a reply")
    expect(await post.locator(".comment").textContent()).toContain("first!")
    await expectAccessible(page)
    await screenshot(page, "queue")
    const bytes = await transferredBytes(page)
    expect(bytes).toBeGreaterThan(0)
    expect(bytes).toBeLessThan(100 * 1024)

    await post.getByRole("button", { name: "Approve" }).click()
    await page.getByText("Nothing is waiting.").waitFor()
    await expectAccessible(page)
    await screenshot(page, "queue-empty")
    expect(await publishDue(host)).toBe(1)
    const after = await call(host, "GET", `/posts/${created.body.post.id}`, { key })
    expect(after.body.post.status).toBe("published")
    expect(after.body.post.targets[0].url).toMatch(/^https?:/)
    await page.close()
  }, 60_000)

  it("the app, the sign-in pages and the API docs run under their Content-Security-Policy without a violation", async () => {
    const { email } = await signUp(host)
    const page = await browser.newPage()
    const violations: Array<string> = []
    page.on("console", (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    const claimMail = await mailTo(host, email, /\/claim\?token=/)
    await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(claimMail.text)![0]))
    await expectAccessible(page)
    await page.getByRole("button", { name: "Claim workspace" }).click()
    await page.waitForURL("**/app")
    await page.getByText("Nothing is waiting.").waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL("**/signin**")
    await expectAccessible(page)
    await page.getByLabel("E-mail").fill(email)
    await page.getByRole("button", { name: "Send me a link" }).click()
    await page.getByText("Check your inbox").waitFor()
    await expectAccessible(page)
    let signInMail: { text: string } | undefined
    for (let i = 0; i < 200 && signInMail === undefined; i++) {
      signInMail = await host.run(
        Effect.map(SentMail, (s) => s.all().find((m) => m.to === email && m.text.includes("/signin/complete")))
      )
      if (signInMail === undefined) await new Promise((r) => setTimeout(r, 10))
    }
    await page.goto(host.local(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(signInMail!.text)![0]))
    await expectAccessible(page)
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
