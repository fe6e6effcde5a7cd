import { Effect, Option } from "effect"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccountRepo } from "../../../application/ports/AccountRepo.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { FORM_REFUSED } from "../../../application/usecases/connectForm.ts"
import { continueConnectLink } from "../../support/connectLink.ts"
import { chromiumAvailable, launch } from "../../web/browser.ts"
import { pipelineOptions, startBlueskyHost, startPage, watchedFetch, workspace } from "./host.ts"
import { type LocalPds, type PdsAccount, startPds } from "./pds.ts"

let pds: LocalPds
let host: Awaited<ReturnType<typeof startBlueskyHost>>
let page: Awaited<ReturnType<typeof startPage>>
const watched = watchedFetch()
let alice: PdsAccount
let bob: PdsAccount

beforeAll(async () => {
  // Sessions carry the DID document, as on bsky.social: Herald logs in at the service URL (127.0.0.1)
  // and then talks to the PDS the document names (localhost), as it would to an entryway and a PDS.
  pds = await startPds({ enableDidDocWithSession: true })
  host = await startBlueskyHost({
    serviceUrl: pds.url.replace("localhost", "127.0.0.1"),
    fetch: watched.fetch
  })
  const png = await sharp({ create: { width: 600, height: 315, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer()
  page = await startPage(
    (origin) => `<!doctype html><html><head><title>Fallback title</title>
<meta property="og:title" content="Herald &amp; Bluesky"><meta property="og:description" content="Posting from an API.">
<meta property="og:image" content="${origin}/card.png"></head><body>Hi</body></html>`,
    png
  )
  alice = await pds.account("alice")
  bob = await pds.account("bob")
  await alice.owner.com.atproto.repo.putRecord({
    repo: alice.did,
    collection: "app.bsky.actor.profile",
    rkey: "self",
    record: { $type: "app.bsky.actor.profile", displayName: "Alice Example" }
  })
}, 120_000)

afterAll(async () => {
  await host?.close()
  await page?.close()
  await pds?.close()
})

const api = async (method: string, path: string, key: string, body?: unknown) => {
  const response = await fetch(`${host.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** The form's action, sent as the browser on Herald's page sends it (with the cookie its Continue set). */
const postForm = (fields: Record<string, string>, cookie: string, origin = host.origin) =>
  fetch(`${host.origin}/connect/bluesky/callback`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", origin, cookie },
    body: new URLSearchParams(fields)
  })

/** The link an agent gets: Herald's start page. */
const startLink = async (key: string) => {
  const reply = await api("GET", "/connect/bluesky", key)
  expect(reply.status).toBe(200)
  return reply.body.url as string
}

/** The link continued in a browser: Herald's form, the link's state and the browser's cookie. */
const connectLink = async (key: string) => {
  const { next, cookie } = await continueConnectLink(await startLink(key))
  return { url: next, state: new URL(next).searchParams.get("state")!, cookie }
}

describe("Bluesky through the HTTP host, against a real PDS", () => {
  it("connects with an app password on Herald's form, refusing the main password and a wrong one", async () => {
    const { apiKey, person } = await host.run(workspace)
    const { url, state, cookie } = await connectLink(apiKey)
    expect(url.startsWith(`${host.origin}/connect/bluesky/form?state=`)).toBe(true)

    const form = await fetch(url, { headers: { cookie } })
    expect(form.status).toBe(200)
    const html = await form.text()
    expect(html).toContain('action="/connect/bluesky/callback"')
    expect(html).toContain("https://bsky.app/settings/app-passwords")
    expect(html).toContain('name="appPassword" type="password"')
    expect(form.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(form.headers.get("x-frame-options")).toBe("DENY")
    expect(form.headers.get("referrer-policy")).toBe("same-origin")
    expect(form.headers.get("cache-control")).toBe("no-store")

    // Sent from another site: refused before anything is used up.
    const forged = await postForm(
      { state, handle: alice.handle, appPassword: alice.appPassword },
      cookie,
      "https://evil.example"
    )
    expect(forged.status).toBe(403)
    expect(((await forged.json()) as any).error.code).toBe("csrf_failed")

    // The main password is refused, and the session it opened is closed again.
    const main = await postForm({ state, handle: alice.handle, appPassword: alice.password }, cookie)
    expect(main.status).toBe(400)
    const mainError = ((await main.json()) as any).error
    expect(mainError).toMatchObject({
      code: "validation_failed",
      message: FORM_REFUSED,
      details: { fields: ["handle", "appPassword"] }
    })
    expect(watched.count("com.atproto.server.deleteSession")).toBe(1)

    // A wrong app password and an unknown handle answer exactly as the main password did: no oracle.
    const wrong = await postForm({ state, handle: alice.handle, appPassword: "aaaa-bbbb-cccc-dddd" }, cookie)
    expect(wrong.status).toBe(400)
    expect(((await wrong.json()) as any).error).toEqual(mainError)
    const unknown = await postForm({ state, handle: "nobody.test", appPassword: "aaaa-bbbb-cccc-dddd" }, cookie)
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as any).error).toEqual(mainError)

    const fresh = await connectLink(apiKey)
    const connected = await postForm(
      { state: fresh.state, handle: `@${alice.handle}`, appPassword: alice.appPassword },
      fresh.cookie
    )
    expect(connected.status).toBe(200)
    const { account } = (await connected.json()) as any
    expect(account).toMatchObject({
      platform: "bluesky",
      username: alice.handle,
      name: "Alice Example",
      status: "connected"
    })
    const stored = Option.getOrThrow(
      await host.run(Effect.flatMap(AccountRepo, (repo) => repo.findById(person.workspaceId, account.id)))
    )
    expect(stored.externalId).toBe(alice.did)
    const sealed = Option.getOrThrow(
      await host.run(Effect.flatMap(CredentialStore, (store) => store.get(account.id)))
    ).sealed
    expect(sealed).not.toContain(alice.appPassword)
    // The session's tokens are in the sealed text, and not readable in it.
    const opened = JSON.parse(await host.run(Effect.flatMap(TokenVault, (vault) => vault.open(sealed)))) as {
      accessToken: string
      refreshToken: string
    }
    expect(opened.accessToken).toMatch(/^eyJ/)
    expect(sealed).not.toContain(opened.accessToken.slice(0, 24))
    expect(sealed).not.toContain(opened.refreshToken.slice(0, 24))

    // Reconnecting the same Bluesky account keeps its Herald id.
    const third = await connectLink(apiKey)
    const again = await postForm(
      { state: third.state, handle: alice.handle, appPassword: alice.appPassword },
      third.cookie
    )
    expect(((await again.json()) as any).account.id).toBe(account.id)
  })

  it("publishes through the pipeline: links, mentions and hashtags as facets, and a link card", async () => {
    const { apiKey } = await host.run(workspace)
    const { state, cookie } = await connectLink(apiKey)
    const { account } = (await (
      await postForm({ state, handle: alice.handle, appPassword: alice.appPassword }, cookie)
    ).json()) as any
    const sessionsBefore = watched.count("com.atproto.server.createSession")

    const link = `${page.origin}/article`
    const content = `Hello @${bob.handle} and @nobody.test, read ${link} #herald`
    const created = await api("POST", "/posts", apiKey, { accountIds: [account.id], content })
    expect(created.status).toBe(201)
    expect(await host.run(publishDueTargets(pipelineOptions, 10))).toBe(1)

    const post = (await api("GET", `/posts/${created.body.post.id}`, apiKey)).body.post
    expect(post.status).toBe("published")
    const target = post.targets[0]
    const rkey = target.externalId.split("/").pop()
    expect(target.externalId).toBe(`at://${alice.did}/app.bsky.feed.post/${rkey}`)
    expect(target.url).toBe(`https://bsky.app/profile/${alice.handle}/post/${rkey}`)

    const record = (
      await bob.owner.com.atproto.repo.getRecord({ repo: alice.did, collection: "app.bsky.feed.post", rkey })
    ).data.value as any
    expect(record.text).toBe(content)
    const bytes = Buffer.from(content)
    const spans = record.facets.map((f: any) => ({
      text: bytes.subarray(f.index.byteStart, f.index.byteEnd).toString(),
      feature: f.features[0]
    }))
    expect(spans).toEqual([
      { text: `@${bob.handle}`, feature: { $type: "app.bsky.richtext.facet#mention", did: bob.did } },
      { text: link, feature: { $type: "app.bsky.richtext.facet#link", uri: link } },
      { text: "#herald", feature: { $type: "app.bsky.richtext.facet#tag", tag: "herald" } }
    ])
    expect(record.embed.$type).toBe("app.bsky.embed.external")
    expect(record.embed.external).toMatchObject({
      uri: link,
      title: "Herald & Bluesky",
      description: "Posting from an API."
    })
    expect(record.embed.external.thumb.mimeType).toBe("image/png")
    expect(record.embed.external.thumb.size).toBeLessThanOrEqual(1_000_000)
    // The stored session was used: no new log-in for the post.
    expect(watched.count("com.atproto.server.createSession")).toBe(sessionsBefore)
    // Logged in at the service; posted to the account's PDS, named by its DID document.
    const hostOf = (method: string) => [...new Set(watched.calls.filter((c) => c.method === method).map((c) => c.host))]
    expect(hostOf("com.atproto.server.createSession")).toEqual([
      new URL(pds.url).host.replace("localhost", "127.0.0.1")
    ])
    expect(hostOf("com.atproto.repo.createRecord")).toEqual([new URL(pds.url).host])
  })
})

// The web suites' own check: without Chromium it fails under CI and says loudly, elsewhere, that this part is skipped.
describe.runIf(chromiumAvailable)("Bluesky's connect form in a real Chromium", () => {
  it("the form's POST carries Herald's Origin (the page's referrer policy keeps it), and the account connects", async () => {
    const { apiKey } = await host.run(workspace)
    const browser = await launch()
    try {
      const tab = await browser.newPage()
      await tab.goto(await startLink(apiKey))
      // Herald's page names the workspace the account goes to, then leads on to the form.
      await tab.getByText("This link connects a").waitFor()
      await tab.getByRole("button", { name: "Continue to Bluesky" }).click()
      await tab.getByLabel("Handle").fill(alice.handle)
      await tab.getByLabel("App password").fill(alice.appPassword)
      await tab.getByRole("button", { name: "Connect" }).click()
      await tab.getByText("Account connected").waitFor()
      expect(await tab.textContent("body")).toContain(`(@${alice.handle}) on bluesky`)
    } finally {
      await browser.close()
    }
  }, 60_000)
})
