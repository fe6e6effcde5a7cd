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

export const KeyList = Schema.Struct({ keys: Schema.Array(Key) }).annotate({ identifier: "KeyList" })
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
