import { Clock, Effect, Option } from "effect"
import { nextDueAt, unavailableRetryMs } from "../../../domain/metrics.ts"
import type { AccountMetricsState, DueTarget, MetricsLease, Refreshed } from "../../ports/MetricsRepo.ts"
import { MetricsRepo } from "../../ports/MetricsRepo.ts"
import { type MetricsCapability, type PublishError, Publishers } from "../../ports/Publishers.ts"
import { authorized, credentialsFor } from "../credentials.ts"
import { findAccount } from "../publishing/accountCache.ts"

/** A throttle or outage that names no wait is tried again after this long. */
const DEFAULT_RETRY_MS = 60_000

/** A target's stage and next due time after a read at `at`: a scheduled read counts once its time has come. */
export const advance = (target: DueTarget, at: number): Pick<Refreshed, "stage" | "dueAt"> => {
  const scheduled = nextDueAt(target.publishedAt, target.stage)
  // A read up to 10% early still counts (a lease picked a little before the due time, an on-demand read near it).
  const counts = scheduled !== null && at >= scheduled - (scheduled - target.publishedAt) * 0.1
  const stage = counts ? target.stage + 1 : target.stage
  return { stage, dueAt: nextDueAt(target.publishedAt, stage) }
}

const unavailable = (accountId: string, reason: string, at: number): AccountMetricsState => ({
  accountId,
  state: "unavailable",
  reason,
  checkedAt: at
})

/** How a refused read ends: throttling and outages come back when the network says; anything else waits longer. */
const waitFor = (e: PublishError) =>
  e.reason._tag === "RateLimited" || e.reason._tag === "Unavailable"
    ? (e.retryAfterMs ?? DEFAULT_RETRY_MS)
    : unavailableRetryMs

/**
 * Reads the figures of one lease (due targets of one account) in as few calls as the network allows,
 * and records them. Never fails: an account the network will not give figures for is marked
 * `unavailable` with the network's reason and asked again only much later, not in a loop; a throttle
 * postpones the targets to the reset the network named.
 */
export const refreshLease = Effect.fn("refreshMetrics")(function* (lease: MetricsLease) {
  const repo = yield* MetricsRepo
  const now = yield* Clock.currentTimeMillis
  const giveUp = (reason: string, targets: ReadonlyArray<DueTarget> = lease.targets) =>
    repo.postpone(targets, now + unavailableRetryMs, unavailable(lease.accountId, reason, now))
  const account = yield* findAccount(lease.workspaceId, lease.accountId)
  if (Option.isNone(account)) return yield* giveUp("The account is no longer connected to Herald.")
  if (account.value.status !== "connected")
    return yield* giveUp("The account needs reconnecting before Herald can read its figures.")
  const capability: MetricsCapability | undefined = Option.getOrUndefined(
    (yield* Publishers).get(lease.platform)
  )?.metrics
  if (capability === undefined) return yield* giveUp("Herald reads no figures from this network.")
  const credentials = yield* credentialsFor(account.value).pipe(
    Effect.map(Option.getOrNull),
    Effect.catchTags({
      NeedsReconnection: (e) => Effect.as(giveUp(e.message), undefined),
      NetworkUnavailable: (e) =>
        Effect.as(repo.postpone(lease.targets, now + (e.retryAfterMs ?? DEFAULT_RETRY_MS), null), undefined)
    })
  )
  if (credentials === undefined) return
  for (let i = 0; i < lease.targets.length; i += capability.batch) {
    const chunk = lease.targets.slice(i, i + capability.batch)
    const rest = lease.targets.slice(i)
    const answer = yield* authorized(account.value, credentials, (c) =>
      capability.read({
        account: account.value,
        credentials: c,
        posts: chunk.map((t) => ({ externalId: t.externalId, publishedAt: t.publishedAt }))
      })
    ).pipe(
      Effect.map((a) => ({ ok: true as const, answer: a })),
      Effect.catchTags({
        PublishError: (e) => Effect.succeed({ ok: false as const, reason: e.message, waitMs: waitFor(e) }),
        NeedsReconnection: (e) => Effect.succeed({ ok: false as const, reason: e.message, waitMs: unavailableRetryMs }),
        NetworkUnavailable: (e) =>
          Effect.succeed({ ok: false as const, reason: e.message, waitMs: e.retryAfterMs ?? DEFAULT_RETRY_MS })
      })
    )
    if (!answer.ok)
      return yield* repo.postpone(
        rest,
        now + answer.waitMs,
        answer.waitMs >= unavailableRetryMs ? unavailable(lease.accountId, answer.reason, now) : null
      )
    if (answer.answer._tag === "NotOffered") return yield* giveUp(answer.answer.reason, rest)
    const read = yield* Clock.currentTimeMillis
    const figures = answer.answer.figures
    yield* repo.complete(
      chunk.map((target) => ({ target, raw: figures.get(target.externalId) ?? null, ...advance(target, read) })),
      read,
      { accountId: lease.accountId, state: "available", reason: null, checkedAt: read }
    )
  }
})
