import { Clock, Context, Deferred, Effect, Layer } from "effect"
import type { Actor } from "../domain/apiKey.ts"
import { fail, type HeraldError } from "../domain/errors.ts"
import type { RequestLimits } from "./config.ts"
import { RateLimiter, type RateLimiterShape } from "./ports/RateLimiter.ts"

/** Request limits are counted in fixed windows of a minute. */
export const REQUEST_WINDOW_MS = 60_000

export interface RequestLimiterShape {
  /**
   * Counts `cost` requests (1 unless a call carries several) of an authenticated caller against its
   * key's budget and its workspace's (a person: the workspace's only); fails with `rate_limited`.
   */
  readonly admit: (actor: Actor, cost?: number) => Effect.Effect<void, HeraldError>
  /**
   * The same, counted when called: undefined when the budgets held in memory admitted the request,
   * else the effect that leases more and counts again, or refuses. For the hot path, where a lazy
   * effect of its own cost more than the count (call it inside the request's effect).
   */
  readonly admitNow: (actor: Actor, cost?: number) => Effect.Effect<void, HeraldError> | undefined
}

/**
 * The per-process side of the request limits. The shared count of each window lives behind the
 * RateLimiter port (the database, for every host on it); a process leases a share of a budget at a
 * time (`leasePercent` of it) and spends it in memory, so a request costs a few map reads and only
 * one request in a lease's worth waits for the database. Across hosts a window never admits more
 * than its limit (leases are granted from the shared count); what it costs is that hits another host
 * leased and has not spent yet are not available here: with H hosts a caller may be refused after
 * `limit - (H - 1) x lease` requests at the least.
 */
export class RequestLimiter extends Context.Service<RequestLimiter, RequestLimiterShape>()("herald/RequestLimiter") {}

/** One budget (a key's or a workspace's) as this process holds it. */
interface Budget {
  readonly bucket: string
  windowStart: number
  /** Hits leased from the shared window and not spent yet. */
  tokens: number
  /** The shared window had no more to lease: nothing is asked for before this time. */
  spentUntil: number
  /** The lease in flight, which the budget's other requests wait for. */
  lease: Deferred.Deferred<void> | undefined
  /** The last refusal, kept for the rest of its second: an error's stack costs far more than the count. */
  refused: HeraldError | undefined
}

/** Budgets held at most; past it, those of windows gone by are forgotten. */
const CAPACITY = 50_000

/** Counts are 32-bit in the database: a larger limit is as good as none. */
const MAX_LIMIT = 2 ** 31 - 1

/** The budgets of one scope (keys, or workspaces) with their limit and lease size. */
class Scope {
  readonly budgets = new Map<string, Budget>()
  readonly name: "key" | "workspace"
  readonly limit: number
  /** Hits asked for at a time. */
  readonly lease: number
  constructor(name: "key" | "workspace", limit: number, leasePercent: number) {
    this.name = name
    this.limit = Math.min(limit, MAX_LIMIT)
    this.lease = Math.max(1, Math.floor((this.limit * Math.min(100, Math.max(0, leasePercent))) / 100))
  }

  /** The budget of `id` in the window starting at `windowStart`: leases of an earlier window are dropped. */
  budget(id: string, windowStart: number): Budget {
    let budget = this.budgets.get(id)
    if (budget === undefined) {
      if (this.budgets.size >= CAPACITY) this.forgetBefore(windowStart)
      budget = {
        bucket: `request:${this.name}:${id}`,
        windowStart,
        tokens: 0,
        spentUntil: 0,
        lease: undefined,
        refused: undefined
      }
      this.budgets.set(id, budget)
    } else if (budget.windowStart !== windowStart) {
      budget.windowStart = windowStart
      budget.tokens = 0
    }
    return budget
  }

  private forgetBefore(windowStart: number) {
    for (const [id, budget] of this.budgets)
      if (budget.windowStart < windowStart && budget.lease === undefined) this.budgets.delete(id)
  }

  refusal(budget: Budget, now: number): HeraldError {
    const retryAfterSeconds = Math.max(1, Math.ceil((budget.spentUntil - now) / 1000))
    if (budget.refused?.details?.retryAfterSeconds === retryAfterSeconds) return budget.refused
    const who = this.name === "key" ? "This API key" : "This workspace"
    budget.refused = fail(
      "rate_limited",
      { retryAfterSeconds, limit: this.limit, windowSeconds: REQUEST_WINDOW_MS / 1000, scope: this.name },
      `${who} is over its limit of ${this.limit} requests a minute.`
    )
    return budget.refused
  }
}

const isSpent = (budget: Budget | undefined, cost: number, now: number): boolean =>
  budget !== undefined && budget.tokens < cost && budget.spentUntil > now

export const make = (settings: RequestLimits) =>
  Effect.gen(function* () {
    const rates = yield* RateLimiter
    // Read once: the hot path reads the time without an effect of its own (the tests' TestClock when built in a test).
    const clock = yield* Clock.Clock
    const keys = settings.perKeyPerMinute > 0 ? new Scope("key", settings.perKeyPerMinute, settings.leasePercent) : null
    const workspaces =
      settings.perWorkspacePerMinute > 0
        ? new Scope("workspace", settings.perWorkspacePerMinute, settings.leasePercent)
        : null
    const admitNow = admitWith(rates, clock, keys, workspaces)
    const shape: RequestLimiterShape = {
      admit: (actor, cost) => Effect.suspend(() => admitNow(actor, cost) ?? Effect.void),
      admitNow
    }
    return shape
  })

const admitWith = (rates: RateLimiterShape, clock: Clock.Clock, keys: Scope | null, workspaces: Scope | null) => {
  /** Leases more of a budget; the budget's other requests wait for the same lease. */
  const lease = (scope: Scope, budget: Budget, cost: number, now: number): Effect.Effect<void> => {
    if (budget.lease !== undefined) return Deferred.await(budget.lease)
    const done = Deferred.makeUnsafe<void>()
    budget.lease = done
    const want = Math.max(scope.lease, cost - budget.tokens)
    const windowStart = budget.windowStart
    return rates.take(budget.bucket, scope.limit, REQUEST_WINDOW_MS, now, want).pipe(
      Effect.map((granted) => {
        if (budget.windowStart === windowStart) budget.tokens += granted.granted
        if (granted.granted < want) budget.spentUntil = now + granted.retryAfterMs
      }),
      Effect.onExit((exit) =>
        Effect.suspend(() => {
          budget.lease = undefined
          return Deferred.done(done, exit)
        })
      ),
      Effect.uninterruptible
    )
  }

  const admitNow = (actor: Actor, cost = 1): Effect.Effect<void, HeraldError> | undefined => {
    const now = clock.currentTimeMillisUnsafe()
    const windowStart = now - (now % REQUEST_WINDOW_MS)
    const key = keys !== null && actor.kind === "key" ? keys.budget(actor.keyId, windowStart) : undefined
    const workspace = workspaces?.budget(actor.workspaceId, windowStart)
    // A spent budget refuses before anything is taken from the other.
    if (isSpent(key, cost, now)) return Effect.fail(keys!.refusal(key!, now))
    if (isSpent(workspace, cost, now)) return Effect.fail(workspaces!.refusal(workspace!, now))
    if (key !== undefined && key.tokens < cost) return leaseThenAdmit(keys!, key, actor, cost, now)
    if (workspace !== undefined && workspace.tokens < cost)
      return leaseThenAdmit(workspaces!, workspace, actor, cost, now)
    if (key !== undefined) key.tokens -= cost
    if (workspace !== undefined) workspace.tokens -= cost
    return undefined
  }

  // Lazy: the lease starts (and other requests wait for it) only once the caller runs this.
  const leaseThenAdmit = (scope: Scope, budget: Budget, actor: Actor, cost: number, now: number) =>
    Effect.suspend(() =>
      Effect.andThen(
        lease(scope, budget, cost, now),
        Effect.suspend(() => admitNow(actor, cost) ?? Effect.void)
      )
    )

  return admitNow
}

export const layer = (settings: RequestLimits) => Layer.effect(RequestLimiter)(make(settings))
