import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. Pinterest has no idempotency key,
 * so the handle records when the attempt started (a pin made since then on the board is the
 * attempt's own) and, for a video, the upload Pinterest processes:
 * - `sending`: images go in the pin create itself; a video is not uploaded yet;
 * - `processing`: the video is uploaded and Pinterest processes it; no pin was sent;
 * - `ready`: the video is processed; the next call creates the pin.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    startedAt: Schema.Number,
    boardId: Schema.String,
    mediaId: Schema.String,
    polls: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("ready"),
    startedAt: Schema.Number,
    boardId: Schema.String,
    mediaId: Schema.String
  })
])

export type PinterestHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: PinterestHandle): string => JSON.stringify(handle)

export const decodeHandle = (text: string | null | undefined): Option.Option<PinterestHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
