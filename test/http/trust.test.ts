import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { startSession } from "../../application/usecases/sessions.ts"
import { escapeHtml } from "../../hosts/http/pages/html.ts"
import { connect, ok, toolError } from "../mcp/client.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { claim, connectSandbox, signIn, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

// What issue 23 found between tenants, agents and people, over REST and MCP (README "Security").

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const HOUR = 3_600_000
const future = (ms: number) => new Date(Date.now() + ms).toISOString()

/** The post's events of these types, once `count` are there (on PostgreSQL an event shows once its transaction has ended). */
const eventTypes = async (key: string, postId: string, types: string, count: number) => {
  let seen: Array<string> = []
  for (let i = 0; i < 100 && seen.length < count; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50))
    const reply = await call(host, "GET", `/events?postId=${postId}&types=${types}`, { key })
    seen = reply.body.events.map((e: { type: string }) => e.type)
  }
  return seen
}

describe("an approval binds the time too", () => {
  it("REST: a key's reschedule of an approved post sends it back to needs_approval; a person's keeps it approved", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const person = { cookie, headers: { "x-csrf-token": csrf } }
    const created = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "next month", scheduledFor: future(30 * 24 * HOUR) }
    })
    const id = created.body.post.id
    expect((await call(host, "POST", `/posts/${id}/approve`, person)).body.post.status).toBe("scheduled")
    const byPerson = await call(host, "POST", `/posts/${id}/reschedule`, {
      ...person,
      body: { scheduledFor: future(20 * 24 * HOUR) }
    })
    expect(byPerson.body.post.status).toBe("scheduled")
    const byKey = await call(host, "POST", `/posts/${id}/reschedule`, { key, body: { scheduledFor: future(HOUR) } })
    expect(byKey.status).toBe(200)
    expect(byKey.body.post.status).toBe("needs_approval")
    const types = await eventTypes(key, id, "post.approved,post.rescheduled,post.needs_approval", 5)
    expect(types).toEqual([
      "post.needs_approval",
      "post.approved",
      "post.rescheduled",
      "post.rescheduled",
      "post.needs_approval"
    ])
    const waiting = await call(host, "GET", "/approvals", person)
    expect(waiting.body.items.map((i: { post: { id: string } }) => i.post.id)).toContain(id)
  })

  it("MCP: reschedule_post of an approved post sends it back the same way", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", {
      accountIds: [accountId],
      content: "over MCP",
      scheduledFor: future(30 * 24 * HOUR)
    })
    await call(host, "POST", `/posts/${post.id}/approve`, { cookie, headers: { "x-csrf-token": csrf } })
    const moved = await ok(client, "reschedule_post", { postId: post.id, scheduledFor: future(HOUR) })
    expect(moved.post.status).toBe("needs_approval")
    expect((await ok(client, "get_post", { postId: post.id })).post.status).toBe("needs_approval")
    await client.close()
  })
})

describe("unclaimed workspaces never publish", () => {
  it("a sign-in through the owner's mailbox claims the workspace (REST and MCP see it claimed); only then is a post approved", async () => {
    const { email, key, workspaceId } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", { accountIds: [accountId], content: "waits for a claim" })
    expect(post.status).toBe("needs_approval")
    const { cookie, csrf } = await signIn(host, email)
    const person = { cookie, headers: { "x-csrf-token": csrf } }
    const claimLink = await call(host, "POST", "/claim-link", { key })
    expect(claimLink.status).toBe(409)
    expect(claimLink.body.error.code).toBe("already_claimed")
    expect((await toolError(client, "request_claim_link")).code).toBe("already_claimed")
    const claimedEvents = await call(host, "GET", "/events?types=workspace.claimed&waitSeconds=5", { key })
    expect(claimedEvents.body.events).toEqual([expect.objectContaining({ workspaceId })])
    const approved = await call(host, "POST", `/posts/${post.id}/approve`, person)
    expect(approved.status).toBe(200)
    expect(["publishing", "published"]).toContain(approved.body.post.status)
    await client.close()
  })
})

describe("unclaimed workspaces never publish: a session that did not claim", () => {
  it("cannot approve its posts nor make keys over REST (claim_required); the post stays waiting", async () => {
    const { email, key, workspaceId } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const created = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "held" } })
    // A session from before sign-in claimed (none is made so any more), kept in an unclaimed workspace.
    const session = await host.run(startSession(workspaceId, email))
    const person = { cookie: `herald_session=${session.token}`, headers: { "x-csrf-token": session.csrf } }
    const approve = await call(host, "POST", `/posts/${created.body.post.id}/approve`, person)
    expect(approve.status).toBe(403)
    expect(approve.body.error.code).toBe("claim_required")
    const keys = await call(host, "POST", "/keys", { ...person, body: { name: "more" } })
    expect(keys.status).toBe(403)
    expect(keys.body.error.code).toBe("claim_required")
    expect((await call(host, "GET", `/posts/${created.body.post.id}`, { key })).body.post.status).toBe("needs_approval")
  })
})

describe("a connect link is bound to the person who completes it", () => {
  const workspaceName = async (id: string) =>
    escapeHtml(Option.getOrThrow(await host.run(Effect.flatMap(WorkspaceRepo, (r) => r.findById(id)))).name)
  const linkFor = async (key: string) => host.local((await call(host, "GET", "/connect/sandbox", { key })).body.url)
  const accountsOf = async (key: string) => (await call(host, "GET", "/accounts", { key })).body.accounts

  it("the link opens Herald's page naming the workspace and the key; its Continue binds the browser", async () => {
    const { key, workspaceId } = await signUp(host)
    const url = await linkFor(key)
    expect(new URL(url).pathname).toBe("/connect/sandbox/start")
    const opened = await fetch(url)
    expect(opened.status).toBe(200)
    expect(opened.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    // The button's redirect may go on to the network's origin (here the sandbox's, Herald's public URL) and nowhere else.
    expect(opened.headers.get("content-security-policy")).toContain("form-action 'self' http://herald.test;")
    expect(opened.headers.get("cache-control")).toBe("no-store")
    const html = await opened.text()
    expect(html).toContain(`<b>${await workspaceName(workspaceId)}</b>`)
    expect(html).toContain("<b>Test agent</b>")
    expect(html).toContain('<form method="post" action="/connect/sandbox/start">')
    // Continue sent from another site is refused and binds nothing.
    const forged = await fetch(`${host.origin}/connect/sandbox/start`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state: new URL(url).searchParams.get("state")! }),
      redirect: "manual"
    })
    expect(forged.status).toBe(403)
    expect(forged.headers.get("set-cookie")).toBeNull()
    const { next, cookie } = await continueConnectLink(url)
    expect(cookie).toMatch(/^herald_connect=/)
    // A second click in the same browser keeps its value and binding.
    const again = await continueConnectLink(url, { cookie })
    expect(again.cookie).toBe(cookie)
    const done = await fetch(host.local(next), { headers: { accept: "application/json", cookie } })
    expect(done.status).toBe(200)
    expect(await accountsOf(key)).toHaveLength(1)
  })

  it("the network's answer reaching another browser than the one that continued connects nothing", async () => {
    const { key } = await signUp(host)
    // The agent continues the link itself and sends the network's URL on, hoping someone completes it.
    const { next } = await continueConnectLink(await linkFor(key))
    const elsewhere = await fetch(host.local(next), { headers: { accept: "application/json" } })
    expect(elsewhere.status).toBe(400)
    expect(await elsewhere.text()).toContain("was not continued from Herald&#39;s page in this browser")
    const otherBrowser = await fetch(host.local(next), {
      headers: { accept: "application/json", cookie: "herald_connect=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG" }
    })
    expect(otherBrowser.status).toBe(400)
    expect(await accountsOf(key)).toEqual([])
  })

  it("a browser signed in to another workspace is refused with a page saying so", async () => {
    const mine = await signUp(host)
    const theirs = await signUp(host)
    const { cookie: session } = await claim(host, theirs.email)
    const url = await linkFor(mine.key)
    const opened = await fetch(url, { headers: { cookie: session } })
    expect(opened.status).toBe(403)
    const html = await opened.text()
    expect(html).toContain("Signed in to another workspace")
    expect(html).toContain(await workspaceName(mine.workspaceId))
    expect(html).not.toContain("<form")
    const continued = await fetch(`${host.origin}/connect/sandbox/start`, {
      method: "POST",
      headers: { origin: host.origin, cookie: session, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state: new URL(url).searchParams.get("state")! }),
      redirect: "manual"
    })
    expect(continued.status).toBe(403)
    // Signed in to the link's own workspace, the page continues.
    const { cookie: own } = await claim(host, mine.email)
    const { next, cookie } = await continueConnectLink(url, { cookie: own })
    const done = await fetch(host.local(next), { headers: { accept: "application/json", cookie: `${own}; ${cookie}` } })
    expect(done.status).toBe(200)
  })
})

describe("the events cursor tells nothing about other workspaces", () => {
  it("is opaque: the same whatever the other workspaces do, and refused in another workspace", async () => {
    const mine = await signUp(host)
    const theirs = await signUp(host)
    const first = await call(host, "GET", "/events?types=workspace.claimed,post.created&limit=1", { key: mine.key })
    expect(first.body.nextCursor).toBe("0")
    const accountId = await connectSandbox(host, mine.key)
    const made = async () =>
      (
        await call(host, "POST", "/posts", {
          key: mine.key,
          body: { accountIds: [accountId], content: `one ${Math.random()}` }
        })
      ).body.post.id
    await made()
    const page = await call(host, "GET", "/events?types=post.created&waitSeconds=5", { key: mine.key })
    const cursor: string = page.body.nextCursor
    // Nothing in it counts: no run of digits that a sequence shared by all workspaces would show.
    expect(cursor).toMatch(/^v1\./)
    expect(cursor).not.toMatch(/^[0-9]+$/)
    // Another workspace's busy minute, then one more event here: two cursors in a row reveal no gap.
    const theirAccount = await connectSandbox(host, theirs.key)
    for (let i = 0; i < 5; i++)
      await call(host, "POST", "/posts", { key: theirs.key, body: { accountIds: [theirAccount], content: `x${i}` } })
    await made()
    const next = await call(host, "GET", `/events?types=post.created&after=${cursor}&waitSeconds=5`, { key: mine.key })
    expect(next.body.events).toHaveLength(1)
    expect(next.body.nextCursor).not.toBe(cursor)
    const stolen = await call(host, "GET", `/events?after=${cursor}`, { key: theirs.key })
    expect(stolen.status).toBe(400)
    expect(stolen.body.error.details.fields).toEqual(["after"])
    const forged = await call(host, "GET", "/events?after=12345", { key: mine.key })
    expect(forged.status).toBe(400)
  })
})
