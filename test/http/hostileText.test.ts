import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultLimits } from "../../application/config.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { connect, toolError } from "../mcp/client.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connectSandbox, signUp, uniqueEmail } from "../support/flows.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const expectInvalid = (reply: { status: number; body: any }, field: string) => {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(400)
  expect(reply.body.error.code).toBe("validation_failed")
  expect(reply.body.error.details.fields).toContain(field)
}

describe("text that is not what it seems", () => {
  it("is refused in every post text field: NUL, lone surrogates, and controls", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const base = { accountIds: [accountId], dryRun: true }
    // A lone surrogate must travel as JSON's escapeHtml: JSON.stringify would keep it escaped.
    const raw = (fields: string) => `{"accountIds":["${accountId}"],"dryRun":true,${fields}}`
    expectInvalid(await call(host, "POST", "/posts", { key, raw: raw('"content":"half \\ud83d a smile"') }), "content")
    expectInvalid(
      await call(host, "POST", "/posts", { key, raw: raw('"content":"ok","firstComment":"\\udc00"') }),
      "firstComment"
    )
    expectInvalid(
      await call(host, "POST", "/posts", { key, body: { ...base, content: "ok", thread: ["fine", "esc \u001b[2J"] } }),
      "thread[1]"
    )
    expectInvalid(
      await call(host, "POST", "/posts", { key, body: { ...base, content: "ok", firstComment: "nul \u0000" } }),
      "firstComment"
    )
    // Prose keeps its line breaks, tabs, right-to-left marks and emoji sequences.
    const fine = await call(host, "POST", "/posts", { key, body: { ...base, content: "line\n\tשלום \u200f 👨‍👩‍👧" } })
    expect(fine.status).toBe(200)
    expect(fine.body.valid).toBe(true)
  })

  it("is refused in names and e-mail addresses, before a rate-limit slot is spent", async () => {
    // This host allows 3 sign-ups per address per hour: six refused ones must not use them up.
    const host = await startHttpHost({
      limits: {
        ...defaultLimits,
        signupPerIpPerHour: 3,
        signupPerEmailPerDay: 100,
        claimLinksPerWorkspacePerHour: 100,
        signinLinksPerEmailPerHour: 100,
        signupsPerDay: 10_000
      }
    })
    try {
      for (const email of [
        `a\u0000${uniqueEmail()}`,
        `pay\u200bpal${uniqueEmail()}`,
        `\u202e${uniqueEmail()}`,
        `${uniqueEmail()}\ud800`
      ])
        expectInvalid(await call(host, "POST", "/signup", { body: { email } }), "email")
      expectInvalid(
        await call(host, "POST", "/signup", { body: { email: uniqueEmail(), agentName: "bot\u200b" } }),
        "agentName"
      )
      expectInvalid(
        await call(host, "POST", "/signup", { body: { email: uniqueEmail(), workspaceName: "Acme\r\nBcc: x" } }),
        "workspaceName"
      )
      for (let i = 0; i < 3; i++)
        expect((await call(host, "POST", "/signup", { body: { email: uniqueEmail() } })).status).toBe(201)
      expect((await call(host, "POST", "/signup", { body: { email: uniqueEmail() } })).status).toBe(429)
    } finally {
      await host.close()
    }
  })

  it("is refused by MCP's sign_up the same way", async () => {
    const client = await connect(host)
    try {
      const error = await toolError(client, "sign_up", { email: `a\u0000${uniqueEmail()}` })
      expect(error.code).toBe("validation_failed")
      expect(error.details.fields).toContain("email")
    } finally {
      await client.close()
    }
  })

  it("refuses a bad connect callback parameter without using up the link, and cleans what the network says", async () => {
    const { key, workspaceId } = await signUp(host)
    const link = await continueConnectLink(host.local((await call(host, "GET", "/connect/sandbox", { key })).body.url))
    const url = host.local(link.next)
    const headers = { accept: "application/json", cookie: link.cookie }
    const bad = await fetch(`${url}&name=${encodeURIComponent("x\u0000")}`, { headers })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("name contains a NUL character")
    // The same link still works afterwards.
    const good = await fetch(`${url}&name=${encodeURIComponent("Ann")}`, { headers })
    expect(good.status).toBe(200)
    const accounts = await host.run(Effect.flatMap(AccountRepo, (repo) => repo.listByWorkspace(workspaceId)))
    expect(accounts.map((a) => a.name)).toEqual(["Ann"])
  })
})

describe("arrays and numbers beyond any network's limits", () => {
  it("caps accountIds, mediaIds, thread and poll options from the rules table, with small errors", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    // Arrays far beyond any network, yet inside the body limit (a larger body is a 413).
    const ids = Array.from({ length: 10_000 }, (_, i) => `acc_${i}`)
    const many = await call(host, "POST", "/posts", { key, body: { accountIds: ids, content: "x", dryRun: true } })
    expectInvalid(many, "accountIds")
    expect(JSON.stringify(many.body).length).toBeLessThan(2_000)
    expectInvalid(
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "x", dryRun: true, thread: Array.from({ length: 10_000 }, () => "t") }
      }),
      "thread"
    )
    expectInvalid(
      await call(host, "POST", "/posts", {
        key,
        body: {
          accountIds: [accountId],
          content: "x",
          dryRun: true,
          mediaIds: Array.from({ length: 1_000 }, (_, i) => `med_${i}`)
        }
      }),
      "mediaIds"
    )
    expectInvalid(
      await call(host, "POST", "/posts", {
        key,
        body: {
          accountIds: [accountId],
          dryRun: true,
          poll: { options: Array.from({ length: 1_000 }, (_, i) => `o${i}`), durationMinutes: 60 }
        }
      }),
      "poll.options"
    )
    // Within the request caps, a network's own cap still applies (the sandbox takes 25 replies).
    expectInvalid(
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "x", dryRun: true, thread: Array.from({ length: 26 }, () => "t") }
      }),
      "thread"
    )
  })

  it("takes limit as digits only", async () => {
    const { key } = await signUp(host)
    for (const limit of ["1e2", "0x10", " 7", "7.0", "-1", "0", "101"])
      expectInvalid(await call(host, "GET", `/posts?limit=${encodeURIComponent(limit)}`, { key }), "limit")
    expect((await call(host, "GET", "/posts?limit=100", { key })).status).toBe(200)
  })

  it("refuses huge texts without counting them whole", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "x".repeat(300_000), dryRun: true }
    })
    expectInvalid(reply, "content")
    expectInvalid(
      await call(host, "POST", "/posts", {
        key,
        body: { accountIds: [accountId], content: "x", scheduledFor: "2".repeat(10_000), dryRun: true }
      }),
      "scheduledFor"
    )
  })
})
