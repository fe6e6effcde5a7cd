import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint before any call. The Bot API has no
 * idempotency key and a bot cannot read a channel's history, so a lost answer leaves the outcome unknown:
 * - `sending`: the message (text, media or poll) may have gone out if the answer was lost.
 * - `poll`: the post's text went out as `textId`; the poll, a reply to it, is next.
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("sending"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("poll"),
    startedAt: Schema.Number,
    textId: Schema.Number
  })
])

export type TelegramHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: TelegramHandle): string => JSON.stringify(handle)

/** The handle, or none when it is absent or not one of ours. */
export const decodeHandle = (text: string | null | undefined): Option.Option<TelegramHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)

export const sending = (startedAt: number): TelegramHandle => ({ v: 1, stage: "sending", startedAt })
