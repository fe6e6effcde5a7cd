import { Effect, Option } from "effect"
import type { PublishRequest, Recovery } from "../../../application/ports/Publishers.ts"
import { findByText } from "../meta/posts.ts"
import type { FacebookApi, PagePost } from "./api.ts"
import { decodeHandle } from "./handle.ts"
import { actingOf, postUrl, reelUrl, reelVideo, videoUrl } from "./pageRequest.ts"
import { isLive } from "./videoStatus.ts"

/**
 * Whether a create whose answer was lost went through: a reel by its stored video id, anything else
 * looked for by its text among the Page's recent posts, videos or the post's comments.
 */
export const makeRecover = (api: FacebookApi) => {
  const found = (item: PagePost | null, url: (item: PagePost) => string | null): Recovery =>
    item === null ? { _tag: "NotPublished" } : { _tag: "Published", published: { externalId: item.id, url: url(item) } }

  return (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" } satisfies Recovery
      // Nothing is sent with a video handle: it only polls.
      if (handle.value.stage === "video") return { _tag: "NotPublished" } satisfies Recovery
      const since = handle.value.startedAt
      const a = yield* actingOf(request)
      if (handle.value.stage === "reel") {
        // The reel is its video id: live, or publish goes on from where its status says it stands (no second upload or finish).
        const status = yield* api.videoStatus(a, handle.value.videoId)
        return isLive(status, true)
          ? ({
              _tag: "Published",
              published: { externalId: handle.value.videoId, url: reelUrl(handle.value.videoId) }
            } satisfies Recovery)
          : ({ _tag: "NotPublished" } satisfies Recovery)
      }
      if (request.replyTo !== null)
        return found(
          findByText(
            yield* api.comments(a, request.replyTo.parentId),
            request.content,
            since,
            (c) => c.message,
            (c) => c.created_time
          ),
          () => null
        )
      // A reel's finish is only ever sent from a `reel` handle: from `sending`, none can be live.
      if (reelVideo(request) !== null) return { _tag: "NotPublished" } satisfies Recovery
      if (request.media.some((m) => m.type === "video"))
        return found(
          findByText(
            yield* api.videos(a),
            request.content,
            since,
            (v) => v.description,
            (v) => v.created_time
          ),
          (v) => videoUrl(a, v.id, { permalink_url: v.permalink_url })
        )
      return found(
        findByText(
          yield* api.publishedPosts(a),
          request.content,
          since,
          (p) => p.message,
          (p) => p.created_time
        ),
        (p) => p.permalink_url ?? postUrl(p.id)
      )
    })
}
