import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint before anything is sent:
 * - `uploading`: the resumable session (prepare's handle, stored before the first byte): asked where
 *   it stands (`bytes *\/total`) and resumed, so a crash never uploads the video twice;
 * - `processing`: the video exists (its id); the cover is set and YouTube's processing polled;
 * - `comment`: a first comment, looked for among the video's comments after a lost answer.
 */
const Handle = Schema.Union([
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("uploading"),
    startedAt: Schema.Number,
    session: Schema.String,
    total: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    startedAt: Schema.Number,
    uploadedAt: Schema.Number,
    videoId: Schema.String,
    polls: Schema.Number,
    thumbnail: Schema.Literals(["pending", "done", "none"])
  }),
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("comment"), startedAt: Schema.Number })
])

export type YouTubeHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: YouTubeHandle): string => JSON.stringify(handle)

export const decodeHandle = (text: string | null | undefined): Option.Option<YouTubeHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
