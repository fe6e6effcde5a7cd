import { Schema } from "effect"
import { Cover, Poll } from "../../domain/contract/postParts.ts"
import { Overrides } from "../../domain/contract/postRequest.ts"

// Request and response shapes as documented in OpenAPI. Decoding here checks types only;
// the use cases validate every rule (and name the fields) on the raw body. (The post request and
// dry-run result are domain/contract's.)

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
  overrides: Overrides,
  scheduledFor: Schema.NullOr(Str),
  requireApproval: Schema.Boolean,
  createdBy: Schema.Struct({ kind: Schema.Literals(["key", "person"]), id: Str, name: Str }),
  createdAt: Str,
  updatedAt: Str,
  publishedAt: Schema.NullOr(Str),
  targets: Schema.Array(TargetView)
}).annotate({ identifier: "Post" })

export const PostEnvelope = Schema.Struct({ post: PostView, replayed: opt(Schema.Boolean) })
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
export const KeyRecord = Schema.Struct({
  id: Str,
  name: Str,
  prefix: Str,
  requireApproval: Schema.Boolean,
  createdAt: Str,
  revokedAt: Schema.NullOr(Str),
  lastUsedAt: Schema.NullOr(Str.annotate({ description: "When the key last authenticated, to within an hour" }))
})
