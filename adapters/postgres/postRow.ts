import type { Creator } from "../../domain/apiKey.ts"
import type { Cover, Poll, Post, PostStatus, Target, TargetDeletion } from "../../domain/post.ts"
import type { Overrides } from "../../domain/overrides.ts"
import type { NetworkOptions } from "../../domain/contract/postRequest.ts"
import { formatUtc } from "../../domain/time.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

/** A target as stored in the `targets` jsonb column: times as ISO 8601 strings, like the columns. */
interface TargetJson extends Omit<Target, "publishedAt" | "deletion"> {
  readonly publishedAt: string | null
  readonly deletion?: (Omit<TargetDeletion, "requestedAt" | "deletedAt"> & TimesJson) | null
}

interface TimesJson {
  readonly requestedAt: string
  readonly deletedAt: string | null
}

export interface PostRow {
  readonly id: string
  readonly workspace_id: string
  readonly status: string
  readonly content: string
  readonly media_ids: ReadonlyArray<string>
  readonly first_comment: string | null
  readonly thread: ReadonlyArray<string>
  readonly poll: Poll | null
  readonly cover: Cover | null
  readonly tiktok_ai_generated: boolean
  readonly network_options: NetworkOptions
  readonly overrides: Overrides
  readonly scheduled_for: Date | null
  readonly require_approval: boolean
  readonly created_by: Creator
  readonly created_at: Date
  readonly updated_at: Date
  readonly published_at: Date | null
  readonly deleted_at: Date | null
  readonly deleted_reason: string | null
  readonly targets: ReadonlyArray<TargetJson>
}

const targetToJson = (t: Target): TargetJson => {
  const { deletion, ...rest } = t
  return {
    ...rest,
    publishedAt: t.publishedAt === null ? null : formatUtc(t.publishedAt),
    // Only a target with a take-down carries it: the rows of others stay as they were.
    ...(deletion == null
      ? {}
      : {
          deletion: {
            ...deletion,
            requestedAt: formatUtc(deletion.requestedAt),
            deletedAt: deletion.deletedAt === null ? null : formatUtc(deletion.deletedAt)
          }
        })
  }
}

const targetFromJson = (t: TargetJson): Target => {
  const { deletion, ...rest } = t
  return {
    ...rest,
    publishedAt: t.publishedAt === null ? null : Date.parse(t.publishedAt),
    ...(deletion == null
      ? {}
      : {
          deletion: {
            ...deletion,
            requestedAt: Date.parse(deletion.requestedAt),
            deletedAt: deletion.deletedAt === null ? null : Date.parse(deletion.deletedAt)
          }
        })
  }
}

export const fromRow = (row: PostRow): Post => ({
  id: row.id,
  workspaceId: row.workspace_id,
  status: row.status as PostStatus,
  content: row.content,
  mediaIds: row.media_ids,
  firstComment: row.first_comment,
  thread: row.thread,
  poll: row.poll,
  cover: row.cover,
  tiktokAiGenerated: row.tiktok_ai_generated,
  networkOptions: row.network_options,
  overrides: row.overrides,
  scheduledFor: fromDateOrNull(row.scheduled_for),
  requireApproval: row.require_approval,
  createdBy: row.created_by,
  createdAt: fromDate(row.created_at),
  updatedAt: fromDate(row.updated_at),
  publishedAt: fromDateOrNull(row.published_at),
  deletedAt: fromDateOrNull(row.deleted_at),
  deletedReason: row.deleted_reason as Post["deletedReason"],
  targets: row.targets.map(targetFromJson)
})

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value))

/** Parameters for insert and update, in column order; jsonb values go as text and are cast in SQL. */
export const toParams = (post: Post) => ({
  id: post.id,
  workspaceId: post.workspaceId,
  status: post.status,
  content: post.content,
  mediaIds: [...post.mediaIds],
  firstComment: post.firstComment,
  thread: JSON.stringify(post.thread),
  poll: jsonOrNull(post.poll),
  cover: jsonOrNull(post.cover),
  tiktokAiGenerated: post.tiktokAiGenerated,
  networkOptions: JSON.stringify(post.networkOptions),
  overrides: JSON.stringify(post.overrides),
  scheduledFor: toDateOrNull(post.scheduledFor),
  requireApproval: post.requireApproval,
  createdBy: JSON.stringify(post.createdBy),
  createdAt: toDate(post.createdAt),
  updatedAt: toDate(post.updatedAt),
  publishedAt: toDateOrNull(post.publishedAt),
  deletedAt: toDateOrNull(post.deletedAt),
  deletedReason: post.deletedReason,
  targets: JSON.stringify(post.targets.map(targetToJson))
})

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : formatUtc(ms))

/** The post as a `posts` row in JSON (column name -> value), for set-based writes of many posts (jsonb_populate_recordset). */
export const toJsonRow = (post: Post) => ({
  id: post.id,
  workspace_id: post.workspaceId,
  status: post.status,
  content: post.content,
  media_ids: post.mediaIds,
  first_comment: post.firstComment,
  thread: post.thread,
  poll: post.poll,
  cover: post.cover,
  tiktok_ai_generated: post.tiktokAiGenerated,
  network_options: post.networkOptions,
  overrides: post.overrides,
  scheduled_for: isoOrNull(post.scheduledFor),
  require_approval: post.requireApproval,
  created_by: post.createdBy,
  created_at: formatUtc(post.createdAt),
  updated_at: formatUtc(post.updatedAt),
  published_at: isoOrNull(post.publishedAt),
  deleted_at: isoOrNull(post.deletedAt),
  deleted_reason: post.deletedReason,
  targets: post.targets.map(targetToJson)
})
