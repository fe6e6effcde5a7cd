// The composer's draft: what a person has filled in, the request it makes, and where a refusal is said.
import { optionSlot, optionsBody } from "./composeOptions.mjs"
import { inAnHour, timeZone } from "./composeParts.mjs"

const scheduling = [
  "scheduled_in_past",
  "scheduled_too_far",
  "invalid_date",
  "local_time_skipped",
  "queue_not_set_up",
  "queue_full",
  "unknown_time_zone"
]
const bySlot = {
  media_required: "media",
  media_not_found: "media",
  media_expired: "media",
  poll_unsupported: "poll",
  thread_unsupported: "thread",
  first_comment_unsupported: "firstComment",
  account_not_found: "targets",
  account_needs_reconnection: "targets"
}

/** Where a refusal is said: beside the field its details.fields names, else by its code, else by the button. */
export const slotsOf = (error) => {
  const fields = Array.isArray(error.details?.fields) ? error.details.fields : []
  const slots = fields.map((f) => {
    const reply = /^thread\[(\d+)\]/.exec(f)
    const override = /^overrides\.(\w+)\.content/.exec(f)
    const ownMedia = /^overrides\.(\w+)\.mediaIds/.exec(f)
    const ownReply = /^overrides\.(\w+)\.thread(?:\[(\d+)\])?/.exec(f)
    if (reply) return `thread-${reply[1]}`
    if (ownMedia) return `override-${ownMedia[1]}-media`
    if (ownReply)
      return ownReply[2] === undefined
        ? `override-${ownReply[1]}-thread`
        : `override-${ownReply[1]}-thread-${ownReply[2]}`
    if (override) return `override-${override[1]}`
    if (f.startsWith("content")) return "content"
    if (f.startsWith("firstComment")) return "firstComment"
    if (f.startsWith("poll")) return "poll"
    if (f === "scheduledFor" || f === "queue") return "when"
    if (f.startsWith("media")) return "media"
    if (f === "accountIds") return "targets"
    if (f.startsWith("cover")) return "cover"
    return optionSlot(f) ?? "general"
  })
  if (slots.length > 0) return [...new Set(slots)]
  return [scheduling.includes(error.code) ? "when" : (bySlot[error.code] ?? "general")]
}

export const blank = () => ({
  text: "",
  media: [],
  overrides: {},
  mediaOverrides: {},
  threadOverrides: {},
  firstComment: "",
  thread: [],
  poll: null,
  options: {},
  cover: null,
  mode: "now",
  local: inAnHour()
})

/** The video's cover as the request takes it: a frame's offset in milliseconds, or an uploaded image. */
const coverOf = (cover) => {
  if (cover?.kind === "frame" && cover.seconds !== "" && Number.isFinite(Number(cover.seconds)))
    return { offsetMs: Math.round(Number(cover.seconds) * 1000) }
  if (cover?.kind === "image" && cover.upload?.status === "done") return { mediaId: cover.upload.id }
  return null
}

/** Whether the draft's media are one video: the only post that takes a cover. */
export const oneVideo = (draft) => {
  const done = draft.media.filter((m) => m.status === "done")
  return done.length === 1 && done[0].type === "video"
}

/** The finished uploads a network gets: its own choice when it has one, else the post's. */
export const mediaFor = (draft, platform) => {
  const done = draft.media.filter((m) => m.status === "done")
  const own = draft.mediaOverrides?.[platform]
  return own === undefined ? done : done.filter((m) => own.includes(m.id))
}

/** Whether a network's post carries an image (Reddit's kind defaults to image then). */
export const hasImageOn = (draft) => (platform) => mediaFor(draft, platform).some((m) => m.type === "image")

/** A network's own text, media and thread, where it has them ([] for none). */
const overrideOf = (draft, platform) => ({
  ...(draft.overrides[platform] !== undefined ? { content: draft.overrides[platform] } : {}),
  ...(draft.mediaOverrides[platform] !== undefined ? { mediaIds: mediaFor(draft, platform).map((m) => m.id) } : {}),
  ...(draft.threadOverrides[platform] !== undefined
    ? { thread: draft.threadOverrides[platform].filter((r) => r.trim() !== "") }
    : {})
})

/** POST /posts's body (and the advice's) from the draft, for the chosen accounts on these platforms. */
export const bodyOf = (draft, chosen, platforms) => {
  const mediaIds = draft.media.filter((m) => m.status === "done").map((m) => m.id)
  const overrides = Object.fromEntries(
    platforms.map((p) => [p, overrideOf(draft, p)]).filter(([, own]) => Object.keys(own).length > 0)
  )
  const replies = draft.thread.filter((r) => r.trim() !== "")
  return {
    accountIds: chosen,
    content: draft.text === "" ? null : draft.text,
    mediaIds: mediaIds.length > 0 ? mediaIds : null,
    firstComment: draft.firstComment.trim() === "" ? null : draft.firstComment,
    thread: replies.length > 0 ? replies : null,
    poll:
      draft.poll === null
        ? null
        : {
            options: draft.poll.options,
            durationMinutes: draft.poll.duration,
            question: draft.poll.question.trim() === "" ? null : draft.poll.question
          },
    cover: oneVideo(draft) ? coverOf(draft.cover) : null,
    ...optionsBody(platforms, draft.options, hasImageOn(draft)),
    overrides: Object.keys(overrides).length > 0 ? overrides : null,
    scheduledFor: draft.mode === "schedule" ? { local: draft.local, timeZone } : null,
    queue: draft.mode === "queue" ? true : null
  }
}
