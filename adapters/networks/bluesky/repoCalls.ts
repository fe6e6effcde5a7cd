import type { Agent } from "@atproto/api"
import { Clock, Effect, Option } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { BlueskyAccount, BlueskyClient } from "./client.ts"
import { isRateLimited, isRecordNotFound, throttled, waitFromHeaders, type XrpcFailure } from "./errors.ts"
import type { RateGate } from "./rateGate.ts"

export const POST = "app.bsky.feed.post"

export type Failure = XrpcFailure | PublishError

export interface StrongRef {
  readonly uri: string
  readonly cid: string
}

/** Calls to an account's PDS: writes wait out the account's rate-limit pause, reads go straight. */
export const makeRepoCalls = (client: BlueskyClient, gate: RateGate) => {
  /**
   * One write for `account` (Bluesky limits writes per account), after its rate-limit pause: none is
   * made during one; the answer's headers set the next pause. Reads (limited per address) go straight.
   */
  const write = <A extends { readonly headers: Readonly<Record<string, string | undefined>> }>(
    account: BlueskyAccount,
    run: (agent: Agent, signal: AbortSignal) => Promise<A>,
    options: { readonly long?: boolean } = {}
  ): Effect.Effect<A, Failure> =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const wait = gate.waitFor(account.did, now)
      if (wait > 0) return yield* Effect.fail(throttled(wait))
      const learn = (headers: Readonly<Record<string, string | undefined>>, limited: boolean) => {
        if (!limited && headers["ratelimit-remaining"] !== "0") return
        const waitMs = waitFromHeaders(headers, Date.now())
        if (waitMs !== undefined) gate.closeUntil(account.did, now + waitMs)
      }
      return yield* client.call(run, account.pdsUrl, options).pipe(
        Effect.tap((r) => Effect.sync(() => learn(r.headers, false))),
        Effect.tapError((f) => Effect.sync(() => learn(f.headers, isRateLimited(f))))
      )
    })

  const read = <A>(
    account: BlueskyAccount,
    run: (agent: Agent, signal: AbortSignal) => Promise<A>
  ): Effect.Effect<A, Failure> => client.call(run, account.pdsUrl)

  const readRecord = (account: BlueskyAccount, repo: string, rkey: string) =>
    read(account, (agent, signal) =>
      agent.com.atproto.repo.getRecord({ repo, collection: POST, rkey }, { signal })
    ).pipe(
      Effect.map((r): Option.Option<StrongRef> => Option.some({ uri: r.data.uri, cid: r.data.cid! })),
      Effect.catch((f) =>
        !(f instanceof PublishError) && isRecordNotFound(f) ? Effect.succeed(Option.none<StrongRef>()) : Effect.fail(f)
      )
    )

  return { write, read, readRecord }
}

export type RepoCalls = ReturnType<typeof makeRepoCalls>
