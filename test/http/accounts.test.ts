import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CredentialStore } from "../../application/ports/CredentialStore.ts"
import { claim, connectSandbox, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const code = (reply: { body: any }) => reply.body?.error?.code

describe("DELETE /accounts/{id}", () => {
  it("a key disconnects its workspace's account: gone from the list, posts to it refused; a second time is 404", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const reply = await call(host, "DELETE", `/accounts/${accountId}`, { key })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ id: accountId, disconnected: true })
    expect((await call(host, "GET", "/accounts", { key })).body.accounts).toEqual([])
    expect(code(await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "hi" } }))).toBe(
      "no_accounts_connected"
    )
    const again = await call(host, "DELETE", `/accounts/${accountId}`, { key })
    expect(again.status).toBe(404)
    expect(code(again)).toBe("account_not_found")
    expect(again.body.error.details).toEqual({ accountIds: [accountId] })
  })

  it("its credentials are deleted with it", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const stored = () =>
      host.run(Effect.flatMap(CredentialStore, (store) => Effect.map(store.get(accountId), Option.isSome)))
    await host.run(
      Effect.flatMap(CredentialStore, (store) => store.put(accountId, { sealed: "sealed-by-test", expiresAt: null }))
    )
    expect(await stored()).toBe(true)
    expect((await call(host, "DELETE", `/accounts/${accountId}`, { key })).status).toBe(200)
    expect(await stored()).toBe(false)
  })

  it("another workspace's account and unknown or malformed ids are 404 account_not_found; the account stays", async () => {
    const owner = await signUp(host)
    const accountId = await connectSandbox(host, owner.key)
    const stranger = await signUp(host)
    for (const id of [accountId, "acc_01JUNKNOWN0000000000000000", "not-an-id"]) {
      const reply = await call(host, "DELETE", `/accounts/${id}`, { key: stranger.key })
      expect(reply.status).toBe(404)
      expect(code(reply)).toBe("account_not_found")
    }
    expect((await call(host, "GET", "/accounts", { key: owner.key })).body.accounts).toMatchObject([{ id: accountId }])
    expect((await call(host, "DELETE", `/accounts/${accountId}`, {})).status).toBe(401)
  })

  it("a signed-in person disconnects with the session and its CSRF token", async () => {
    const { key, email } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const reply = await call(host, "DELETE", `/accounts/${accountId}`, { cookie, headers: { "x-csrf-token": csrf } })
    expect(reply.status).toBe(200)
    expect((await call(host, "GET", "/accounts", { key })).body.accounts).toEqual([])
  })
})
