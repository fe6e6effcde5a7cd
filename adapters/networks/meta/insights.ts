import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability, MetricsRequest } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { type HttpReply, isSuccess, jsonOf } from "../shared/http.ts"
import { metaProblem, publishErrorOf } from "./errors.ts"
import type { Graph } from "./graph.ts"

/** Meta's permission errors: (#10) and 200-299 name a permission the token lacks. */
const isPermission = (code: number | null, message: string) =>
  code !== null && ((code === 10 && !/not enough viewers/i.test(message)) || (code >= 200 && code <= 299))

/** Meta's answers for one post that mean "no figures for it", not "none for the account": too few viewers, gone. */
const isPostless = (code: number | null, message: string) =>
  (code === 10 && /not enough viewers/i.test(message)) || (code === 100 && /does not exist|nonexisting/i.test(message))

/** An insights answer's figures: each metric's lifetime value, where it is a number. */
export const insightsFigures = (body: unknown): Record<string, number> => {
  const out: Record<string, number> = {}
  const data = (body as { data?: unknown })?.data
  for (const metric of Array.isArray(data) ? data : []) {
    const value = metric?.total_value?.value ?? metric?.values?.[0]?.value
    if (typeof metric?.name === "string" && typeof value === "number") out[metric.name] = value
  }
  return out
}

export interface InsightsReader {
  readonly network: string
  /** The Graph host that serves this account (Instagram: its login's), or null when none is configured. */
  readonly graphOf: (request: MetricsRequest) => Graph | null
  /** The permission this network's insights need, named in the reason when the token lacks it. */
  readonly permission: string
  /** One post's read: the path and parameters under the Graph version, and its figures from the answer. */
  readonly path: (externalId: string) => string
  readonly params: Readonly<Record<string, string>>
  readonly figuresOf: (body: unknown) => RawFigures
}

/**
 * Reads each post's insights through the network's Graph client (its throttling honoured, shared with
 * publishing as Meta's limits are per app and account): a token without the insights permission gives
 * NotOffered; a post with too few viewers, or taken down, gives no figures.
 */
export const makeInsights = (reader: InsightsReader): MetricsCapability => ({
  batch: 1,
  read: (request) =>
    Effect.gen(function* () {
      if (request.credentials === null)
        return yield* PublishError.unauthorized({ message: `The ${reader.network} account has no stored access.` })
      const graph = reader.graphOf(request)
      if (graph === null)
        return {
          _tag: "NotOffered",
          reason: `${reader.network}'s app for this account's login is not configured.`
        } satisfies MetricsAnswer
      const figures = new Map<string, RawFigures>()
      for (const post of request.posts) {
        const reply: HttpReply = yield* graph
          .call({
            method: "GET",
            path: reader.path(post.externalId),
            token: request.credentials.accessToken,
            params: reader.params,
            acting: request.account.externalId
          })
          .pipe(Effect.mapError(graph.asPublishError))
        if (isSuccess(reply)) {
          figures.set(post.externalId, reader.figuresOf(jsonOf(reply)))
          continue
        }
        const problem = metaProblem(reply)
        const [code, message] = [problem?.code ?? null, problem?.message ?? ""]
        if (isPermission(code, message))
          return {
            _tag: "NotOffered",
            reason: `${reader.network} does not give this account's insights to Herald (${reader.permission} is needed): ${message}`
          } satisfies MetricsAnswer
        if (isPostless(code, message)) continue
        return yield* publishErrorOf(reader.network, reply)
      }
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
