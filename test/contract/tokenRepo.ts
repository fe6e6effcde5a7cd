import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type StoredToken, type TokenKind, TokenRepo } from "../../application/ports/TokenRepo.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import type { Workspace } from "../../domain/workspace.ts"
import { layerOptions, newId, seedWorkspace, type SuiteOptions, T0 } from "./fixtures.ts"

const token = (ws: Workspace, kind: TokenKind, over: Partial<StoredToken> = {}): StoredToken => ({
  hash: newId("hash"),
  kind,
  workspaceId: ws.id,
  email: ws.ownerEmail,
  data: kind === "connect" ? "bluesky" : null,
  createdAt: T0,
  expiresAt: T0 + 60_000,
  ...over
})

export const tokenRepoContract = (
  name: string,
  ports: Layer.Layer<TokenRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`TokenRepo contract (${name})`, (it) => {
    it.effect("find reads a token of the right kind until it expires, without using it up", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const session = token(ws, "session", { data: "csrf-secret" })
        yield* repo.insert(session)
        assert.deepStrictEqual(yield* repo.find(session.hash, "session", T0), Option.some(session))
        assert.deepStrictEqual(yield* repo.find(session.hash, "session", session.expiresAt - 1), Option.some(session))
        assert.isTrue(Option.isNone(yield* repo.find(session.hash, "session", session.expiresAt)))
        assert.isTrue(Option.isNone(yield* repo.find(session.hash, "signin", T0)))
      })
    )

    it.effect("listFor gives one person's unexpired tokens of one kind, oldest first", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const older = token(ws, "session", { data: "a", createdAt: T0 - 10 })
        const newer = token(ws, "session", { data: "b" })
        yield* repo.insert(newer)
        yield* repo.insert(older)
        yield* repo.insert(token(ws, "session", { email: "someone-else@herald.test" }))
        yield* repo.insert(token(ws, "signin"))
        yield* repo.insert(token(ws, "session", { expiresAt: T0 + 5 }))
        assert.deepStrictEqual(yield* repo.listFor(ws.id, ws.ownerEmail, "session", T0 + 5), [older, newer])
      })
    )

    it.effect("takeDue takes the markers of one kind whose time has come, once", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const due = token(ws, "approval_digest", { expiresAt: T0 + 10 })
        const later = token(ws, "approval_digest", { expiresAt: T0 + 1000 })
        yield* repo.insert(due)
        yield* repo.insert(later)
        yield* repo.insert(token(ws, "approval", { expiresAt: T0 + 5 }))
        assert.deepStrictEqual(yield* repo.takeDue("approval_digest", T0 + 10, 10), [due])
        assert.deepStrictEqual(yield* repo.takeDue("approval_digest", T0 + 10, 10), [])
        assert.deepStrictEqual(yield* repo.takeDue("approval_digest", T0 + 1000, 10), [later])
      })
    )

    it.effect("consume is single use", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const claimLink = token(ws, "claim")
        yield* repo.insert(claimLink)
        assert.deepStrictEqual(yield* repo.consume(claimLink.hash, "claim", T0 + 1), Option.some(claimLink))
        assert.isTrue(Option.isNone(yield* repo.consume(claimLink.hash, "claim", T0 + 2)))
        assert.isTrue(Option.isNone(yield* repo.find(claimLink.hash, "claim", T0 + 2)))
      })
    )

    it.effect("consume refuses an expired token or one of another kind", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const signin = token(ws, "signin")
        yield* repo.insert(signin)
        assert.isTrue(Option.isNone(yield* repo.consume(signin.hash, "signin", signin.expiresAt)))
        assert.isTrue(Option.isNone(yield* repo.consume(signin.hash, "claim", T0)))
        // Neither attempt used it up while it was still valid.
        assert.deepStrictEqual(yield* repo.consume(signin.hash, "signin", T0), Option.some(signin))
      })
    )

    it.effect("of concurrent consumers exactly one gets the token", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const signin = token(ws, "signin")
        yield* repo.insert(signin)
        const results = yield* Effect.forEach(
          Array.from({ length: 20 }),
          () => repo.consume(signin.hash, "signin", T0),
          {
            concurrency: "unbounded"
          }
        )
        assert.strictEqual(results.filter(Option.isSome).length, 1)
      })
    )

    it.effect("delete and deleteKind remove tokens", () =>
      Effect.gen(function* () {
        const repo = yield* TokenRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const session = token(ws, "session")
        const oldClaims = [token(ws, "claim"), token(ws, "claim")]
        const signin = token(ws, "signin")
        const otherClaim = token(other, "claim")
        for (const t of [session, ...oldClaims, signin, otherClaim]) yield* repo.insert(t)

        yield* repo.delete(session.hash)
        assert.isTrue(Option.isNone(yield* repo.find(session.hash, "session", T0)))

        yield* repo.deleteKind(ws.id, "claim")
        for (const t of oldClaims) assert.isTrue(Option.isNone(yield* repo.find(t.hash, "claim", T0)))
        assert.isTrue(Option.isSome(yield* repo.find(signin.hash, "signin", T0)))
        assert.isTrue(Option.isSome(yield* repo.find(otherClaim.hash, "claim", T0)))
      })
    )
  })
