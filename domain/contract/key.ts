import { Schema } from "effect"
import { Time } from "./postParts.ts"

// API keys, as a signed-in person manages them.

export const CreateKeyRequest = Schema.Struct({
  name: Schema.optional(Schema.String),
  requireApproval: Schema.optional(Schema.Boolean)
}).annotate({
  identifier: "CreateKeyRequest"
})

export const Key = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String.annotate({ description: "The key's first characters, to recognise it" }),
  requireApproval: Schema.Boolean.annotate({
    description: "Asks-first: every post it creates waits for a person's approval"
  }),
  createdAt: Time,
  revokedAt: Schema.NullOr(Time),
  lastUsedAt: Schema.NullOr(Time).annotate({
    description: "When the key last authenticated, to within an hour; null: never"
  })
}).annotate({ identifier: "Key" })
export type Key = typeof Key.Type

export const Connection = Schema.Struct({
  id: Schema.String.annotate({ description: "grt_...: revoked like a key, named in createdBy of the posts it makes" }),
  name: Schema.String,
  clientId: Schema.String.annotate({
    description: "The client's id: a registered cli_... or its metadata document's URL"
  }),
  clientName: Schema.String.annotate({ description: "The name the client gives itself (its own claim, not verified)" }),
  requireApproval: Schema.Boolean.annotate({
    description: "Asks-first: every post it creates waits for a person's approval"
  }),
  createdAt: Time,
  revokedAt: Schema.NullOr(Time),
  lastUsedAt: Schema.NullOr(Time).annotate({
    description: "When it last called Herald, to within an hour; null: never"
  })
}).annotate({
  identifier: "Connection",
  description: "An AI assistant connected over MCP with OAuth: a person's consent, acting like a key of the workspace"
})
export type Connection = typeof Connection.Type

export const KeyList = Schema.Struct({ keys: Schema.Array(Key), connections: Schema.Array(Connection) }).annotate({
  identifier: "KeyList"
})
export const CreatedKey = Schema.Struct({
  apiKey: Schema.String.annotate({ description: "The secret key, shown only in this answer" }),
  key: Key
}).annotate({
  identifier: "CreatedKey"
})
export type CreatedKey = typeof CreatedKey.Type
export const RevokedKey = Schema.Struct({ id: Schema.String, revoked: Schema.Literal(true) }).annotate({
  identifier: "RevokedKey"
})
