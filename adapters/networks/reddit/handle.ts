import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. Reddit has no idempotency key, so
 * the handle records when the attempt started: a post (or comment) the account made since then with
 * the same title and subreddit (or text and parent) is the attempt's own.
 * - `sending`: nothing known to be on Reddit yet; the submit may have gone through if its answer was lost.
 * - `accepted`: Reddit took an image post (it names it only over a websocket): it is looked for in the
 *   account's posts, `looks` times so far.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("accepted"),
    startedAt: Schema.Number,
    looks: Schema.Number
  })
])

export type RedditHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: RedditHandle): string => JSON.stringify(handle)

export const decodeHandle = (text: string | null | undefined): Option.Option<RedditHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
