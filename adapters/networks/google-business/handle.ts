import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. Google takes no idempotency key,
 * so `sending` records when the attempt started (a post with the same text made since then at the
 * location is the attempt's own); `reviewing` names the post Google made and is still reviewing
 * (state PROCESSING), asked about until it is LIVE or REJECTED.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("reviewing"),
    startedAt: Schema.Number,
    name: Schema.String,
    searchUrl: Schema.NullOr(Schema.String),
    polls: Schema.Number
  })
])

export type GoogleBusinessHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: GoogleBusinessHandle): string => JSON.stringify(handle)

export const decodeHandle = (text: string | null | undefined): Option.Option<GoogleBusinessHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
