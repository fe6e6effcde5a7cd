import { Option, Schema } from "effect"

/**
 * How far one publish attempt to a Page got, stored as the job's checkpoint. Facebook has no
 * idempotency key, so the handle records when the attempt started (recovery looks for a post made
 * since), and, once Meta named it, the video's id:
 * - `sending`: nothing known to be on Facebook; the post may exist if the answer was lost.
 * - `reel`: a reel's upload session exists (its video id and upload URL); its upload and finish
 *   may have been sent, which the video's status tells, so neither is sent twice.
 * - `video`: the video was created (or the reel finished) and Meta is processing it; nothing more is sent, only polled.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("reel"),
    startedAt: Schema.Number,
    videoId: Schema.String,
    uploadUrl: Schema.String
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("video"),
    startedAt: Schema.Number,
    videoId: Schema.String,
    polls: Schema.Number,
    reel: Schema.optionalKey(Schema.Boolean)
  })
])
export type FacebookHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))
export const encodeHandle = (handle: FacebookHandle): string => JSON.stringify(handle)
export const decodeHandle = (text: string | null | undefined): Option.Option<FacebookHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
export const sending = (startedAt: number): FacebookHandle => ({ v: 1, stage: "sending", startedAt })
