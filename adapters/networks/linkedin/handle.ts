import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. LinkedIn has no idempotency key,
 * so the handle records when the attempt started (a duplicate made since then is this attempt's
 * post) and the uploads already made:
 * - `sending`: nothing sent yet, or a text post whose create may have reached LinkedIn;
 * - `processing`: a video is uploaded and LinkedIn is processing it; no post was sent;
 * - `ready`: every upload is usable; the next call creates the post.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    startedAt: Schema.Number,
    video: Schema.String,
    polls: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("ready"),
    startedAt: Schema.Number,
    kind: Schema.Literals(["image", "images", "video"]),
    ids: Schema.Array(Schema.String)
  })
])

export type LinkedInHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: LinkedInHandle): string => JSON.stringify(handle)

/** The handle, or none when it is absent or not one of ours (start afresh). */
export const decodeHandle = (text: string | null | undefined): Option.Option<LinkedInHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)

export const sending = (startedAt: number): LinkedInHandle => ({ v: 1, stage: "sending", startedAt })

/**
 * When LinkedIn made a post, from its URN: share and activity ids carry their creation time in
 * milliseconds in their top 41 bits, as snowflake ids do.
 */
export const createdAtOf = (urn: string): number | null => {
  const id = /:(\d{15,20})$/.exec(urn)?.[1]
  return id === undefined ? null : Number(BigInt(id) >> 22n)
}
