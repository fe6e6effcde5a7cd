import { Schema } from "effect"

// Request and response shapes as documented in OpenAPI. Decoding here checks types only;
// the use cases validate every rule (and name the fields) on the raw body.

const Str = Schema.String
const opt = Schema.optional

export const SignUpBody = Schema.Struct({
  email: Str.annotate({ description: "The human owner's real address" }),
  workspaceName: opt(Str),
  agentName: opt(Str.annotate({ description: "Name given to the created key, shown on its posts" })),
  locale: opt(Schema.Literals(["en", "ja"]))
}).annotate({ identifier: "SignUpRequest" })

const WorkspaceView = Schema.Struct({ id: Str, name: Str, plan: Str, claimed: Schema.Boolean, expiresAt: Str })
const KeyView = Schema.Struct({ id: Str, name: Str, prefix: Str, requireApproval: Schema.Boolean })

export const SignUpResponse = Schema.Struct({
  workspace: Schema.NullOr(WorkspaceView),
  apiKey: Schema.NullOr(Str),
  key: Schema.NullOr(KeyView),
  claimSent: Schema.Boolean,
  claimExpiresAt: Schema.NullOr(Str),
  next: Schema.Array(Str),
  delivery: Str
}).annotate({ identifier: "SignUpResponse" })

export const ClaimLinkResponse = Schema.Struct({ claimSent: Schema.Boolean, claimExpiresAt: Str, delivery: Str })

export const AccountView = Schema.Struct({
  id: Str,
  platform: Str,
  name: Str,
  username: Str,
  avatarUrl: Schema.NullOr(Str),
  status: Schema.Literals(["connected", "needs_reconnection"]),
  connectedAt: Str
}).annotate({ identifier: "Account" })

export const BoardView = Schema.Struct({ id: Str, name: Str, description: Schema.NullOr(Str), privacy: Schema.NullOr(Str) }).annotate({ identifier: "Board" })

export const Poll = Schema.Struct({ options: Schema.Array(Str), durationMinutes: Schema.Number, question: opt(Str) })
export const Cover = Schema.Union([Schema.Struct({ mediaId: Str }), Schema.Struct({ offsetMs: Schema.Number })])

export const CreatePostBody = Schema.Struct({
  accountIds: Schema.Array(Str),
  content: opt(Str),
  mediaIds: opt(Schema.Array(Str)),
  mediaId: opt(Str),
  dryRun: opt(Schema.Boolean),
  scheduledFor: opt(Str.annotate({ description: "ISO 8601 with an offset, in the future, under one year ahead" })),
  requireApproval: opt(Schema.Boolean),
  firstComment: opt(Str),
  thread: opt(Schema.Array(Str)),
  firstReply: opt(Str),
  poll: opt(Poll),
  cover: opt(Cover),
  tiktokAiGenerated: opt(Schema.Boolean),
  tiktok: opt(
    Schema.Struct({
      privacyLevel: opt(Schema.Literals(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"])),
      brandedContent: opt(Schema.Boolean)
    })
  ),
  youtube: opt(
    Schema.Struct({
      title: opt(Str.annotate({ description: "The video's title, 1-100 characters; without one, the text's first line" })),
      privacyStatus: opt(Schema.Literals(["public", "unlisted", "private"])),
      madeForKids: opt(Schema.Boolean),
      tags: opt(Schema.Array(Str))
    }).annotate({ description: "YouTube only: the video's title, privacy, made-for-kids declaration and tags" })
  ),
  pinterest: opt(
    Schema.Struct({
      boardId: opt(Str.annotate({ description: "A board of the account (GET /accounts/{id}/boards); without one, the account's default board" })),
      link: opt(Str.annotate({ description: "Where the pin leads, an http(s) URL" })),
      title: opt(Str.annotate({ description: "The pin's title, at most 100 characters" }))
    }).annotate({ description: "Pinterest only: the board, link and title of the pin" })
  )
}).annotate({ identifier: "CreatePostRequest" })

const TargetError = Schema.NullOr(Schema.Struct({ code: Str, message: Str, retryable: Schema.Boolean }))

export const TargetView = Schema.Struct({
  accountId: Str,
  platform: Str,
  status: Str,
  externalId: Schema.NullOr(Str),
  url: Schema.NullOr(Str),
  publishedAt: Schema.NullOr(Str),
  error: TargetError,
  firstComment: Schema.NullOr(Schema.Struct({ status: Str, externalId: Schema.NullOr(Str), error: TargetError })),
  thread: Schema.Array(Schema.Struct({ index: Schema.Number, externalId: Str, url: Schema.NullOr(Str) }))
})

export const PostView = Schema.Struct({
  id: Str,
  status: Schema.Literals(["needs_approval", "scheduled", "publishing", "published", "failed"]),
  content: Str,
  mediaIds: Schema.Array(Str),
  firstComment: Schema.NullOr(Str),
  thread: Schema.Array(Str),
  poll: Schema.NullOr(Poll),
  cover: Schema.NullOr(Cover),
  tiktokAiGenerated: Schema.Boolean,
  scheduledFor: Schema.NullOr(Str),
  requireApproval: Schema.Boolean,
  createdBy: Schema.Struct({ kind: Schema.Literals(["key", "person"]), id: Str, name: Str }),
  createdAt: Str,
  updatedAt: Str,
  publishedAt: Schema.NullOr(Str),
  targets: Schema.Array(TargetView)
}).annotate({ identifier: "Post" })

export const PostEnvelope = Schema.Struct({ post: PostView, replayed: opt(Schema.Boolean) })
export const DryRunResult = Schema.Struct({
  dryRun: Schema.Boolean,
  valid: Schema.Boolean,
  warnings: Schema.Array(Str),
  requireApproval: Schema.Boolean,
  wouldPost: Schema.Record(Str, Schema.Unknown)
}).annotate({ identifier: "DryRunResult" })

export const PostList = Schema.Struct({ posts: Schema.Array(PostView), nextCursor: Schema.NullOr(Str) })
export const RescheduleBody = Schema.Struct({ scheduledFor: Str })
export const BulkBody = Schema.Struct({
  postIds: Schema.Array(Str),
  versions: opt(Schema.Record(Str, Str).annotate({ description: "bulk-approve: the version each post was seen at, by post id" })),
  reason: opt(Str.annotate({ description: "bulk-reject: one reason for every post" }))
})
export const BulkResult = Schema.Struct({
  results: Schema.Array(Schema.Struct({ id: Str, ok: Schema.Boolean, error: Schema.NullOr(Schema.Struct({ code: Str, details: Schema.Unknown })) }))
})
export const Removed = Schema.Struct({ id: Str, cancelled: opt(Schema.Boolean), rejected: opt(Schema.Boolean) })
export const FirstCommentRetryBody = Schema.Struct({ accountId: opt(Str) })

export const CreateKeyBody = Schema.Struct({ name: opt(Str), requireApproval: opt(Schema.Boolean) })
export const KeyRecord = Schema.Struct({ id: Str, name: Str, prefix: Str, requireApproval: Schema.Boolean, createdAt: Str, revokedAt: Schema.NullOr(Str) })
