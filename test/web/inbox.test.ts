import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Browser } from "playwright-core"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { TokenRepo } from "../../application/ports/TokenRepo.ts"
import { DIGEST_WINDOW_MS, digestMarker, sendDueDigests } from "../../application/usecases/inboxApproval.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { claim, connectSandbox, signUp } from "../support/flows.ts"
import { chromiumAvailable, expectAccessible, launch, mailTo, publishDue, screenshot } from "./browser.ts"

const approveLink = /https?:\/\/\S+\/inbox\?token=\S+&action=approve/
const rejectLink = /https?:\/\/\S+\/inbox\?token=\S+&action=reject/

describe.runIf(chromiumAvailable)("approving from the inbox", () => {
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

  /** A claimed workspace (approval e-mails go to claimed owners), its agent's key and a sandbox account. */
  const owner = async () => {
    const { email, key, workspaceId } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const session = await claim(host, email)
    return { email, key, accountId, session, workspaceId }
  }
  const ask = (key: string, body: Record<string, unknown>) =>
    call(host, "POST", "/posts", { key, body }).then((r) => r.body.post.id as string)

  it("the owner gets an e-mail with the post and its preview, and approves from its link on a confirming page", async () => {
    const { email, key, accountId } = await owner()
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2a6" } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append("file", new Blob([png]), "picture.png")
    const media = (await (
      await fetch(`${host.base}/media`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
    ).json()) as { media: { id: string } }
    const id = await ask(key, {
      accountIds: [accountId],
      content: "From the inbox <b>not bold</b>",
      mediaIds: [media.media.id]
    })

    const mail = await mailTo(host, email, approveLink)
    expect(mail.subject).toBe("Herald: Test agent asks to post")
    expect(mail.text).toContain("From the inbox <b>not bold</b>")
    expect(mail.html).toContain("From the inbox &lt;b&gt;not bold&lt;/b&gt;")
    expect(mail.html).toMatch(/<img src="cid:preview-0@herald"/)
    expect(mail.inlineImages?.[0]?.contentType).toBe("image/jpeg")
    expect(mail.inlineImages?.[0]?.content.byteLength).toBeGreaterThan(100)

    // A fresh browser, not signed in: the link alone is enough, and opening it changes nothing.
    const context = await browser.newContext()
    const page = await context.newPage()
    const link = host.local(approveLink.exec(mail.text)![0])
    await page.goto(link)
    await page.getByRole("heading", { name: "Approve this post?" }).waitFor()
    expect(await page.locator(".post").textContent()).toContain("From the inbox <b>not bold</b>")
    expect((await call(host, "GET", `/posts/${id}`, { key })).body.post.status).toBe("needs_approval")
    await expectAccessible(page)
    await screenshot(page, "inbox-confirm")
    await page.getByRole("button", { name: "Approve this post" }).click()
    await page.getByRole("heading", { name: "Approved" }).waitFor()
    await screenshot(page, "inbox-approved")
    expect(await publishDue(host)).toBe(1)
    expect((await call(host, "GET", `/posts/${id}`, { key })).body.post.status).toBe("published")

    // Single use: the link (and its reject twin) now says so.
    const again = await page.goto(link)
    expect(again!.status()).toBe(400)
    expect(await page.textContent("body")).toContain("invalid, already used or expired")
    await context.close()
  }, 60_000)

  it("a link is bound to the post as e-mailed: after the agent changes it, the link cannot approve it", async () => {
    const { email, key, accountId } = await owner()
    const id = await ask(key, {
      accountIds: [accountId],
      content: "will move",
      scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString()
    })
    const mail = await mailTo(host, email, approveLink)
    await call(host, "POST", `/posts/${id}/reschedule`, {
      key,
      body: { scheduledFor: new Date(Date.now() + 4 * 86_400_000).toISOString() }
    })
    const page = await browser.newPage()
    await page.goto(host.local(approveLink.exec(mail.text)![0]))
    await page.getByRole("heading", { name: "This post changed" }).waitFor()
    expect(await page.getByRole("button").count()).toBe(0)
    expect((await call(host, "GET", `/posts/${id}`, { key })).body.post.status).toBe("needs_approval")
    await page.close()
  }, 60_000)

  it("reject from the link with a reason; a form posted from another site is refused", async () => {
    const { email, key, accountId } = await owner()
    const id = await ask(key, { accountIds: [accountId], content: "reject me" })
    const mail = await mailTo(host, email, rejectLink)
    const link = host.local(rejectLink.exec(mail.text)![0])
    const token = new URL(link).searchParams.get("token")!
    const forged = await fetch(`${host.origin}/inbox`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, action: "approve" })
    })
    expect(forged.status).toBe(403)
    const page = await browser.newPage()
    await page.goto(link)
    await page.getByLabel("Reason for the agent (optional)").fill("Off topic.")
    await page.getByRole("button", { name: "Reject this post" }).click()
    await page.getByRole("heading", { name: "Rejected" }).waitFor()
    const events = await call(host, "GET", `/events?postId=${id}&types=post.rejected`, { key })
    expect(events.body.events[0].data.reason).toBe("Off topic.")
    await page.close()
  }, 60_000)

  it("with the digest setting, posts arriving together wait for one e-mail listing them", async () => {
    const { email, key, accountId, session, workspaceId } = await owner()
    const patched = await fetch(`${host.base}/workspace`, {
      method: "PATCH",
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf, "content-type": "application/json" },
      body: JSON.stringify({ approvalMail: "digest", locale: "ja" })
    })
    expect(patched.status).toBe(200)
    const mailsTo = () =>
      host.run(Effect.map(SentMail, (s) => s.all().filter((m) => m.to === email && /\/inbox\?token=/.test(m.text))))
    await ask(key, { accountIds: [accountId], content: "burst one" })
    await mailTo(host, email, /burst one/)
    await ask(key, { accountIds: [accountId], content: "burst two" })
    await ask(key, { accountIds: [accountId], content: "burst three" })
    // Burst two was seen: its e-mail became the workspace's coming digest (burst three, later, joins it;
    // an e-mail of its own would make three below).
    const digestPending = () =>
      host.run(
        Effect.map(
          Effect.flatMap(TokenRepo, (tokens) =>
            tokens.find(digestMarker(workspaceId), "approval_digest", Number.NEGATIVE_INFINITY)
          ),
          (found) => found._tag === "Some"
        )
      )
    for (let i = 0; i < 300 && !(await digestPending()); i++) await new Promise((r) => setTimeout(r, 10))
    expect(await digestPending()).toBe(true)
    expect(await mailsTo()).toHaveLength(1)
    // Before the window ends nothing goes; after it, one digest with both.
    expect(await host.run(sendDueDigests(100))).toEqual({ digests: 0 })
    const later = Effect.gen(function* () {
      yield* TestClock.setTime(Date.now() + DIGEST_WINDOW_MS + 1000)
      return yield* sendDueDigests(100)
    }).pipe(Effect.provide(TestClock.layer()))
    expect(await host.run(later)).toEqual({ digests: 1 })
    const all = await mailsTo()
    expect(all).toHaveLength(2)
    expect(all[1]!.subject).toBe("Herald: 2 件の投稿が承認を待っています")
    expect(all[1]!.text).toContain("burst two")
    expect(all[1]!.text).toContain("burst three")
    expect(all[1]!.text.match(/action=approve/g)).toHaveLength(2)
  }, 60_000)

  it("no approval e-mail while the workspace is unclaimed (the owner approves after claiming)", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    await ask(key, { accountIds: [accountId], content: "unclaimed" })
    // Once claimed, the next post is e-mailed: when its e-mail is there, the first post's turn (earlier,
    // on the same path) has long passed, and it sent nothing.
    await claim(host, email)
    await ask(key, { accountIds: [accountId], content: "after claiming" })
    await mailTo(host, email, /after claiming/)
    const approvalMails = await host.run(
      Effect.map(SentMail, (s) => s.all().filter((m) => m.to === email && /inbox\?token/.test(m.text)))
    )
    expect(approvalMails.map((m) => m.text.includes("after claiming"))).toEqual([true])
  }, 60_000)
})
