import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability, MetricsRequest } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { pick } from "../shared/figures.ts"
import type { Answer, MastodonApi, StatusCounts } from "./api.ts"
import { METRICS_BATCH } from "./config.ts"
import { instanceRefusedError, noAnswerError, publishErrorOf, throttledError, unreadable } from "./errors.ts"
import { guardInstance } from "./instance.ts"
import { actingOf } from "./MastodonPublisher.ts"

const COUNTS = ["favourites_count", "replies_count", "reblogs_count"]

/**
 * Reads statuses' public counts with the account's token: GET /api/v1/statuses?id[]= (Mastodon 4.3+,
 * 20 a call); on an older server (no such route: 404) one GET /api/v1/statuses/:id each. A status the
 * instance no longer has is left out (taken down). Mastodon counts no views, clicks or watch time.
 */
export const make = (api: MastodonApi): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request: MetricsRequest) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request.credentials)
      yield* guardInstance({ origin: acting.origin, host: new URL(acting.origin).host })
      const figures = new Map<string, RawFigures>()
      const keep = (s: StatusCounts) => figures.set(s.id, pick(s, COUNTS))
      const ids = request.posts.map((p) => p.externalId)
      const batch = yield* api.countsOf(acting, ids)
      if (batch._tag === "Ok") {
        for (const s of batch.value) keep(s)
        return { _tag: "Read", figures } satisfies MetricsAnswer
      }
      if (batch._tag === "Unreadable" || batch.reply.status !== 404) return yield* failure(batch, "figures")
      for (const id of ids) {
        const one = yield* api.counts(acting, id)
        if (one._tag === "Ok") keep(one.value)
        else if (one._tag === "Unreadable" || one.reply.status !== 404) return yield* failure(one, "figures")
      }
      return { _tag: "Read", figures } satisfies MetricsAnswer
    }).pipe(
      Effect.catchTags({
        Throttled: (e) => Effect.fail(throttledError(e)),
        NoAnswer: (e) => Effect.fail(noAnswerError(e)),
        InstanceRefused: (e) => Effect.fail(instanceRefusedError(e))
      })
    )
})

const failure = (answer: Exclude<Answer<unknown>, { _tag: "Ok" }>, what: string) =>
  Effect.fail(answer._tag === "Refused" ? publishErrorOf(answer.reply, what) : unreadable(answer.reply, what))
