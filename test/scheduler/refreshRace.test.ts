import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { connector as sandboxConnector } from "../../adapters/networks/sandbox/index.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { Connectors, GrantRevoked } from "../../application/ports/Connectors.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import { credentialsFor, storeCredentials } from "../../application/usecases/credentials.ts"
import { withTestServer } from "../support/postgres.ts"
import { freshDatabase, pgCore, seedWorkspace } from "./pg.ts"

/**
 * Two schedulers (two runtimes, each with its own connection pool, on one PostgreSQL database) renew
 * the same account's rotating refresh token at the same moment. The network accepts each refresh
 * token once, like X: a second use of the old one is refused, and the account must not end up
 * needing reconnection.
 */
const suite = () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  const used = new Set<string>()
  let refreshCalls = 0
  const rotatingNetwork = Layer.succeed(Connectors)(
    connectorsOf([
      {
        ...sandboxConnector,
        refresh: (credentials) =>
          Effect.gen(function* () {
            refreshCalls++
            // The network takes its time, so both renewals overlap.
            yield* Effect.sleep(200)
            if (credentials.refreshToken === null || used.has(credentials.refreshToken))
              return yield* Effect.fail(new GrantRevoked({ message: "invalid_grant: refresh token already used" }))
            used.add(credentials.refreshToken)
            const n = used.size + 1
            return { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, expiresAt: Date.now() + 2 * 3_600_000 }
          })
      }
    ])
  )
  const scheduler = () => ManagedRuntime.make(Layer.merge(pgCore(db.url, 4), rotatingNetwork))
  let first: ReturnType<typeof scheduler>
  let second: ReturnType<typeof scheduler>

  beforeAll(async () => {
    db = await freshDatabase("herald_refresh_race")
    first = scheduler()
    second = scheduler()
  })
  afterAll(async () => {
    await first?.dispose()
    await second?.dispose()
    await db?.drop()
  })

  it("renew once under the account's lock: both get the newest token, nothing is lost, the account stays connected", async () => {
    const { workspaceId, accountIds } = await first.runPromise(seedWorkspace(1))
    const accountId = accountIds[0]!
    const account = await first.runPromise(
      Effect.map(
        Effect.flatMap(AccountRepo, (r) => r.findById(workspaceId, accountId)),
        Option.getOrThrow
      )
    )
    // An access token a minute from its end: both schedulers decide to renew it.
    await first.runPromise(
      storeCredentials(accountId, {
        accessToken: "access-1",
        refreshToken: "refresh-1",
        expiresAt: Date.now() + 60_000
      })
    )
    const [a, b] = await Promise.all([
      first.runPromise(credentialsFor(account)),
      second.runPromise(credentialsFor(account))
    ])
    expect(refreshCalls).toBe(1)
    expect(Option.getOrThrow(a)).toEqual(Option.getOrThrow(b))
    expect(Option.getOrThrow(a).refreshToken).toBe("refresh-2")
    const after = await second.runPromise(Effect.flatMap(AccountRepo, (r) => r.findById(workspaceId, accountId)))
    expect(Option.getOrThrow(after).status).toBe("connected")
    // The stored token is the rotated one: the next renewal (forced, as after a 401) works.
    const again = await second.runPromise(credentialsFor(account, { force: true }))
    expect(Option.getOrThrow(again).refreshToken).toBe("refresh-3")
  }, 30_000)
}

await withTestServer("token refresh race (PostgreSQL, two pools)", () =>
  describe("token refresh race (PostgreSQL, two pools)", suite)
)
