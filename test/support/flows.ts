import { Effect } from "effect"
import { expect } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import type { Platform } from "../../domain/platforms.ts"
import { continueConnectLink } from "./connectLink.ts"
import { call, type HttpHost } from "./httpHost.ts"

let counter = 0
export const uniqueEmail = () => `owner${Date.now().toString(36)}${++counter}@herald-customer.org`

/** Signs up a workspace and returns its asks-first key. */
export const signUp = async (host: HttpHost, email = uniqueEmail()) => {
  const reply = await call(host, "POST", "/signup", { body: { email, agentName: "Test agent" } })
  expect(reply.status).toBe(201)
  return { email, key: reply.body.apiKey as string, workspaceId: reply.body.workspace.id as string, body: reply.body }
}

/** Claims the workspace through the e-mailed link, as the owner would; returns the session cookie and CSRF token. */
export const claim = async (host: HttpHost, email: string) => {
  const mail = await host.run(Effect.map(SentMail, (s) => s.last(email)))
  const link = /https?:\/\/\S+\/claim\?token=\S+/.exec(mail!.text)![0]
  const token = new URL(link).searchParams.get("token")!
  const page = await fetch(host.local(link))
  expect(page.status).toBe(200)
  const response = await fetch(`${host.origin}/claim`, {
    method: "POST",
    body: new URLSearchParams({ token, locale: "en" }),
    redirect: "manual"
  })
  expect(response.status).toBe(303)
  const cookie = response.headers.get("set-cookie")!.split(";")[0]
  const app = await fetch(`${host.origin}/app`, { headers: { cookie } })
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await app.text())![1]
  return { cookie, csrf }
}

/** Signs in through the e-mailed sign-in link (form, mail, button), as the owner would; returns the session cookie and CSRF token. */
export const signIn = async (host: HttpHost, email: string) => {
  const before = await host.run(Effect.map(SentMail, (s) => s.all().length))
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${host.origin}${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { origin: host.origin },
      redirect: "manual"
    })
  expect((await form("/signin", { email })).status).toBe(200)
  let token: string | undefined
  for (let i = 0; i < 200 && token === undefined; i++) {
    const mail = await host.run(
      Effect.map(SentMail, (s) =>
        s
          .all()
          .slice(before)
          .find((m) => m.to === email)
      )
    )
    if (mail) token = /\/signin\/complete\?token=([A-Za-z0-9]+)/.exec(mail.text)![1]
    else await new Promise((r) => setTimeout(r, 10))
  }
  const response = await form("/signin/complete", { token: token! })
  expect(response.status).toBe(303)
  const cookie = response.headers.get("set-cookie")!.split(";")[0]
  const app = await fetch(`${host.origin}/app`, { headers: { cookie } })
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await app.text())![1]
  return { cookie, csrf }
}

/** Connects a sandbox account through the connect URL, as a browser would. */
export const connectSandbox = async (host: HttpHost, key: string) => {
  const reply = await call(host, "GET", "/connect/sandbox", { key })
  expect(reply.status).toBe(200)
  const { next, cookie } = await continueConnectLink(host.local(reply.body.url))
  const done = await fetch(host.local(next), { headers: { accept: "application/json", cookie } })
  expect(done.status).toBe(200)
  return ((await done.json()) as { account: { id: string } }).account.id
}

/** Adds an account of another network directly (no OAuth peers in these tests). */
export const addAccount = (
  host: HttpHost,
  workspaceId: string,
  platform: Platform,
  status: "connected" | "needs_reconnection" = "connected"
) =>
  host
    .run(
      Effect.flatMap(AccountRepo, (repo) =>
        repo.upsert({
          id: `acc_${platform}${++counter}`,
          workspaceId,
          platform,
          name: platform,
          username: platform,
          avatarUrl: null,
          status,
          connectedAt: Date.now(),
          externalId: `${platform}-${counter}`
        })
      )
    )
    .then((a) => a.id)
