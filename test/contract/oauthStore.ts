import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { OAuthStore } from "../../application/ports/OAuthStore.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import type { OAuthClient, OAuthGrant, OAuthToken } from "../../domain/oauth.ts"
import { layerOptions, seedWorkspace, type SuiteOptions, T0 } from "./fixtures.ts"

let n = 0
const client = (over: Partial<OAuthClient> = {}): OAuthClient => ({
  id: `cli_${++n}${Date.now().toString(36)}`,
  kind: "registered",
  name: "A client",
  uri: null,
  redirectUris: ["http://127.0.0.1:9/cb"],
  createdAt: T0,
  fetchedAt: T0,
  ...over
})
const grant = (workspaceId: string, over: Partial<OAuthGrant> = {}): OAuthGrant => ({
  id: `grt_${++n}${Date.now().toString(36)}`,
  workspaceId,
  clientId: "cli_x",
  clientName: "A client",
  name: "A client",
  resource: "https://herald.test/mcp",
  scope: "herald",
  requireApproval: true,
  createdAt: T0 + n,
  revokedAt: null,
  lastUsedAt: null,
  ...over
})
const token = (grantId: string, kind: OAuthToken["kind"]): OAuthToken => ({
  hash: `hash_${++n}_${kind}`,
  kind,
  grantId,
  createdAt: T0,
  expiresAt: T0 + 60_000,
  usedAt: null
})

export const oauthStoreContract = (
  name: string,
  ports: Layer.Layer<OAuthStore | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`OAuthStore contract (${name})`, (it) => {
    it.effect("saves a client and replaces it when its document is read again", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const c = client({ kind: "document", id: "https://example.org/client.json", uri: "https://example.org" })
        yield* store.saveClient(c)
        assert.deepStrictEqual(yield* store.findClient(c.id), Option.some(c))
        const again = { ...c, name: "Renamed", redirectUris: ["https://example.org/cb"], fetchedAt: T0 + 5 }
        yield* store.saveClient(again)
        assert.deepStrictEqual(yield* store.findClient(c.id), Option.some(again))
        assert.isTrue(Option.isNone(yield* store.findClient("cli_missing")))
      })
    )

    it.effect("lists a workspace's grants; revoking one ends it and deletes its tokens, once", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const mine = grant(ws.id)
        yield* store.insertGrant(mine)
        yield* store.insertGrant(grant(other.id))
        assert.deepStrictEqual(yield* store.listGrants(ws.id), [mine])
        const access = token(mine.id, "access")
        yield* store.insertToken(access)
        assert.deepStrictEqual(yield* store.findToken(access.hash), Option.some(access))
        assert.isFalse(yield* store.revokeGrant(mine.id, other.id, T0 + 10))
        assert.isTrue(yield* store.revokeGrant(mine.id, ws.id, T0 + 10))
        assert.isFalse(yield* store.revokeGrant(mine.id, null, T0 + 20))
        assert.deepStrictEqual(yield* store.findGrant(mine.id), Option.some({ ...mine, revokedAt: T0 + 10 }))
        assert.isTrue(Option.isNone(yield* store.findToken(access.hash)))
      })
    )

    it.effect("records a grant's use at most once an hour", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const g = grant((yield* seedWorkspace()).id)
        yield* store.insertGrant(g)
        const lastUsed = Effect.map(store.findGrant(g.id), (found) => Option.getOrThrow(found).lastUsedAt)
        yield* store.recordGrantUse(g.id, T0 + 1000)
        yield* store.recordGrantUse(g.id, T0 + 1000 + KEY_USE_RESOLUTION_MS - 1)
        assert.strictEqual(yield* lastUsed, T0 + 1000)
        yield* store.recordGrantUse(g.id, T0 + 1000 + KEY_USE_RESOLUTION_MS)
        assert.strictEqual(yield* lastUsed, T0 + 1000 + KEY_USE_RESOLUTION_MS)
      })
    )

    it.effect("a code is taken once and only before it expires", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const g = grant((yield* seedWorkspace()).id)
        yield* store.insertGrant(g)
        const code = {
          hash: `code_${++n}`,
          grantId: g.id,
          clientId: "cli_x",
          redirectUri: "http://127.0.0.1:9/cb",
          codeChallenge: "c".repeat(43),
          resource: g.resource,
          expiresAt: T0 + 300_000
        }
        yield* store.insertCode(code)
        assert.deepStrictEqual(yield* store.consumeCode(code.hash, T0), Option.some(code))
        assert.isTrue(Option.isNone(yield* store.consumeCode(code.hash, T0)))
        const late = { ...code, hash: `code_${++n}` }
        yield* store.insertCode(late)
        assert.isTrue(Option.isNone(yield* store.consumeCode(late.hash, late.expiresAt)))
      })
    )

    it.effect("the sweep deletes expired codes and tokens only, up to the limit each", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const g = grant((yield* seedWorkspace()).id)
        yield* store.insertGrant(g)
        const live = { ...token(g.id, "refresh"), expiresAt: T0 + 10_000_000 }
        const old = [token(g.id, "access"), token(g.id, "access"), token(g.id, "refresh")]
        for (const t of [live, ...old]) yield* store.insertToken(t)
        const code = {
          hash: `code_${++n}`,
          grantId: g.id,
          clientId: "cli_x",
          redirectUri: "http://127.0.0.1:9/cb",
          codeChallenge: "c".repeat(43),
          resource: g.resource,
          expiresAt: T0 + 1
        }
        yield* store.insertCode(code)
        const later = T0 + 1_000_000
        assert.strictEqual(yield* store.sweep(later, 2), 3)
        assert.strictEqual(yield* store.sweep(later, 2), 1)
        assert.strictEqual(yield* store.sweep(later, 2), 0)
        assert.isTrue(Option.isSome(yield* store.findToken(live.hash)))
        for (const t of old) assert.isTrue(Option.isNone(yield* store.findToken(t.hash)))
      })
    )

    it.effect("a refresh token is used once; two uses racing, one wins", () =>
      Effect.gen(function* () {
        const store = yield* OAuthStore
        const g = grant((yield* seedWorkspace()).id)
        yield* store.insertGrant(g)
        const refresh = token(g.id, "refresh")
        const access = token(g.id, "access")
        yield* store.insertToken(refresh)
        yield* store.insertToken(access)
        assert.isFalse(yield* store.useRefreshToken(access.hash, T0 + 1))
        const both = yield* Effect.all(
          [store.useRefreshToken(refresh.hash, T0 + 1), store.useRefreshToken(refresh.hash, T0 + 1)],
          {
            concurrency: 2
          }
        )
        assert.deepStrictEqual(both.filter(Boolean).length, 1)
        assert.deepStrictEqual(yield* store.findToken(refresh.hash), Option.some({ ...refresh, usedAt: T0 + 1 }))
      })
    )
  })
