import { Effect } from "effect"
import { PublishError, type PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import type { Acting, VideoStatus } from "./api.ts"

// What a publish request means for a Page: who acts, whether it is a reel, where its objects live on facebook.com.

const FACEBOOK = "https://www.facebook.com"

export const actingOf = (
  request: Pick<PublishRequest, "account" | "credentials">
): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.revoked({ message: "The Facebook Page has no stored access." }))
    : Effect.succeed({ pageId: request.account.externalId, token: request.credentials.accessToken })

/** Meta gives video permalinks as paths ("/{page}/videos/{id}/"). */
const absolute = (url: string | undefined) =>
  url === undefined ? null : url.startsWith("/") ? `${FACEBOOK}${url}` : url
export const postUrl = (id: string) => `${FACEBOOK}/${id}`
export const videoUrl = (a: Acting, videoId: string, status?: VideoStatus) =>
  absolute(status?.permalink_url) ?? `${FACEBOOK}/${a.pageId}/videos/${videoId}`
export const reelUrl = (videoId: string) => `${FACEBOOK}/reel/${videoId}`

/** The post's one video goes up as a reel when the post asks for it (facebook.reel). */
export const reelVideo = (request: PublishRequest): Media | null =>
  request.options?.facebook?.reel === true ? (request.media.find((m) => m.type === "video") ?? null) : null
