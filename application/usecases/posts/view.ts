import type { TargetMetrics } from "../../../domain/contract/metrics.ts"
import type { Post as PostView, Target as TargetView } from "../../../domain/contract/post.ts"
import type { Post, Target } from "../../../domain/post.ts"
import { formatUtc } from "../../../domain/time.ts"

const time = (t: number | null) => (t === null ? null : formatUtc(t))

export const targetView = (t: Target, metrics?: TargetMetrics): TargetView => ({
  accountId: t.accountId,
  platform: t.platform,
  status: t.status,
  externalId: t.externalId,
  url: t.url,
  publishedAt: time(t.publishedAt),
  error: t.error,
  firstComment: t.firstComment,
  thread: t.thread,
  ...(metrics === undefined ? {} : { metrics }),
  ...(t.deletion == null
    ? {}
    : {
        deletion: {
          ...t.deletion,
          requestedAt: formatUtc(t.deletion.requestedAt),
          deletedAt: time(t.deletion.deletedAt)
        }
      })
})

/** The post record as the API shows it: times in UTC with Z; `metrics` by account id, for published targets. */
export const postView = (p: Post, metrics?: ReadonlyMap<string, TargetMetrics>): PostView => ({
  id: p.id,
  status: p.status,
  content: p.content,
  mediaIds: p.mediaIds,
  firstComment: p.firstComment,
  thread: p.thread,
  poll: p.poll,
  cover: p.cover,
  tiktokAiGenerated: p.tiktokAiGenerated,
  /** Per-network replacements: a target's final content is the post's fields with overrides[target.platform] applied. */
  overrides: p.overrides,
  scheduledFor: time(p.scheduledFor),
  requireApproval: p.requireApproval,
  createdBy: p.createdBy,
  createdAt: formatUtc(p.createdAt),
  updatedAt: formatUtc(p.updatedAt),
  publishedAt: time(p.publishedAt),
  targets: p.targets.map((t) => targetView(t, metrics?.get(`${p.id}/${t.accountId}`)))
})
