import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { type HttpReply, isSuccess, jsonOf } from "../shared/http.ts"
import { pick } from "../shared/figures.ts"
import type { LinkedInClient } from "./client.ts"
import { METRICS_BATCH, type LinkedInConfig } from "./config.ts"
import { linkedInMessage, noAnswerError, publishErrorOf, rateLimitedError } from "./errors.ts"

/** What memberCreatorPostAnalytics is asked, one query type a call. */
const MEMBER_TYPES = ["IMPRESSION", "REACTION", "COMMENT", "RESHARE"] as const
const ORGANIZATION_COUNTS = [
  "impressionCount",
  "uniqueImpressionsCount",
  "clickCount",
  "likeCount",
  "commentCount",
  "shareCount"
]

const isPage = (author: string) => author.startsWith("urn:li:organization:")
/** Rest.li 2.0: a URN inside a query value is percent-encoded, parentheses and commas are syntax. */
const urn = (value: string) => encodeURIComponent(value)
const kindOf = (postUrn: string) => (postUrn.startsWith("urn:li:ugcPost:") ? "ugc" : "share")

const denied = (reply: HttpReply, what: string): string | null =>
  reply.status === 403 ? `${what} (${linkedInMessage(reply)})` : null

/**
 * Reads posts' figures: a page's with organizationalEntityShareStatistics (up to 20 posts a call,
 * r_organization_social); a member's with memberCreatorPostAnalytics (one call per figure and post,
 * r_member_postAnalytics, which LinkedIn grants only to approved apps). LinkedIn's 403 gives NotOffered;
 * its daily limits are kept by the same client as publishing.
 */
export const make = (settings: LinkedInConfig, client: LinkedInClient): MetricsCapability => {
  const get = (author: string, accessToken: string, url: string) =>
    client.call({ author, accessToken, method: "GET", url }).pipe(
      Effect.catchTags({
        DailyLimit: (e) => Effect.fail(rateLimitedError(e.retryAfterMs, e.said)),
        NoAnswer: (e) => Effect.fail(noAnswerError(e))
      })
    )
  const failed = (reply: HttpReply) => Effect.fail(publishErrorOf(reply))
  return {
    batch: METRICS_BATCH,
    read: (request) =>
      Effect.gen(function* () {
        if (request.credentials === null)
          return yield* PublishError.unauthorized({ message: "The LinkedIn account has no stored access." })
        const author = request.account.externalId
        const token = request.credentials.accessToken
        const figures = new Map<string, RawFigures>()
        if (isPage(author)) {
          const shares = request.posts.map((p) => p.externalId).filter((id) => kindOf(id) === "share")
          const ugcs = request.posts.map((p) => p.externalId).filter((id) => kindOf(id) === "ugc")
          const lists = [
            ...(shares.length > 0 ? [`shares=List(${shares.map(urn).join(",")})`] : []),
            ...(ugcs.length > 0 ? [`ugcPosts=List(${ugcs.map(urn).join(",")})`] : [])
          ]
          const reply = yield* get(
            author,
            token,
            `${settings.apiUrl}/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${urn(author)}&${lists.join("&")}`
          )
          const refused = denied(
            reply,
            "LinkedIn does not give this page's post statistics to Herald: the page role or r_organization_social is missing"
          )
          if (refused !== null) return { _tag: "NotOffered", reason: refused } satisfies MetricsAnswer
          if (!isSuccess(reply)) return yield* failed(reply)
          const elements = (jsonOf(reply) as { elements?: unknown })?.elements
          for (const e of Array.isArray(elements) ? elements : []) {
            const id = typeof e?.share === "string" ? e.share : typeof e?.ugcPost === "string" ? e.ugcPost : null
            if (id !== null) figures.set(id, pick(e.totalShareStatistics, ORGANIZATION_COUNTS))
          }
          return { _tag: "Read", figures } satisfies MetricsAnswer
        }
        for (const post of request.posts) {
          const raw: Record<string, number> = {}
          for (const type of MEMBER_TYPES) {
            const reply = yield* get(
              author,
              token,
              `${settings.apiUrl}/rest/memberCreatorPostAnalytics?q=entity&entity=(${kindOf(post.externalId)}:${urn(post.externalId)})&queryType=${type}&aggregation=TOTAL`
            )
            const refused = denied(
              reply,
              "LinkedIn gives a member's post analytics only to apps it approved for r_member_postAnalytics"
            )
            if (refused !== null) return { _tag: "NotOffered", reason: refused } satisfies MetricsAnswer
            if (reply.status === 404) break
            if (!isSuccess(reply)) return yield* failed(reply)
            const elements = (jsonOf(reply) as { elements?: ReadonlyArray<{ count?: unknown }> })?.elements
            const count = Array.isArray(elements) ? elements[0]?.count : undefined
            if (typeof count === "number") raw[type] = count
          }
          if (Object.keys(raw).length > 0) figures.set(post.externalId, raw)
        }
        return { _tag: "Read", figures } satisfies MetricsAnswer
      })
  }
}
