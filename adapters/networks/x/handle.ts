import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. X has no idempotency key, so the
 * handle records when the attempt started (recovery looks for a post made since) and, for media that
 * X processes, the uploaded ids:
 * - `sending`: nothing known to be on X yet; the post may have been created if the answer was lost.
 * - `processing`: a video or GIF is still being processed; no post was sent with this handle.
 * - `ready`: every upload is usable; the next call sends the post (so a lost answer is looked for).
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    startedAt: Schema.Number,
    mediaIds: Schema.Array(Schema.String),
    waitingFor: Schema.String
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("ready"),
    startedAt: Schema.Number,
    mediaIds: Schema.Array(Schema.String)
  })
])

export type XHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: XHandle): string => JSON.stringify(handle)

/** The handle, or none when it is absent or not one of ours (an older format: start afresh). */
export const decodeHandle = (text: string | null | undefined): Option.Option<XHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)

export const sending = (startedAt: number): XHandle => ({ v: 1, stage: "sending", startedAt })
