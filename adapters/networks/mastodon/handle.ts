import { Option, Schema } from "effect"

/**
 * How far one status got, stored by the pipeline between calls. `key` is the status's Idempotency-Key
 * (Mastodon gives back the status already made when a create repeats it within an hour); uploads
 * are a step of their own, so a create is only ever sent from `sending` without media or `ready`.
 */
export const MastodonHandle = Schema.Union([
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("sending"),
    key: Schema.String,
    startedAt: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    key: Schema.String,
    startedAt: Schema.Number,
    mediaIds: Schema.Array(Schema.String),
    /** Uploads the instance was still processing at the last look. */
    waitingFor: Schema.Array(Schema.String)
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("ready"),
    key: Schema.String,
    startedAt: Schema.Number,
    mediaIds: Schema.Array(Schema.String)
  })
])
export type MastodonHandle = typeof MastodonHandle.Type

const json = Schema.fromJsonString(MastodonHandle)
export const encodeHandle = Schema.encodeSync(json)
const decode = Schema.decodeUnknownOption(json)
export const decodeHandle = (text: string | null | undefined): Option.Option<MastodonHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
