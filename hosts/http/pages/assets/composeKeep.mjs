// The draft kept in this browser across visits (localStorage, one per workspace and person), restored on return.
import { blank } from "./composeDraft.mjs"

const owner = document.querySelector('meta[name="draft-owner"]')?.content ?? ""
const storageKey = `herald.draft.${owner}`

/** Only finished uploads are kept: one in flight or refused would never finish after a reload. */
const keptUpload = (m) => m?.status === "done"

/** Whether the draft holds nothing a person wrote or chose (the schedule's first value aside). */
const isEmpty = (draft) => {
  const { local: _l, mode, ...rest } = draft
  const { local: _b, mode: _m, ...empty } = blank()
  return mode === "now" && JSON.stringify(rest) === JSON.stringify(empty)
}

/** Keeps the draft and the chosen accounts; an empty draft removes what was kept. */
export const keepDraft = (draft, chosen) => {
  try {
    if (isEmpty(draft)) {
      localStorage.removeItem(storageKey)
      return
    }
    const cover =
      draft.cover?.kind === "image" && !keptUpload(draft.cover.upload) ? { ...draft.cover, upload: null } : draft.cover
    const kept = { ...draft, media: draft.media.filter(keptUpload), cover }
    localStorage.setItem(storageKey, JSON.stringify({ savedAt: Date.now(), chosen, draft: kept }))
  } catch {
    // A full or refused storage only costs the draft's keeping, never the composing.
  }
}

export const forgetDraft = () => {
  try {
    localStorage.removeItem(storageKey)
  } catch {}
}

const live = (now) => (m) => typeof m.expiresAt !== "string" || Date.parse(m.expiresAt) > now

/**
 * The kept draft, if any, for these accounts: media past their expiry (7 days after upload) are dropped
 * and counted, so the page can say so; accounts no longer there are left out.
 */
export const restoreDraft = (accounts, now = Date.now()) => {
  let kept = null
  try {
    kept = JSON.parse(localStorage.getItem(storageKey) ?? "null")
  } catch {
    return null
  }
  if (kept === null || typeof kept.draft !== "object") return null
  const draft = { ...blank(), ...kept.draft }
  const media = draft.media.filter(live(now))
  const coverLive = draft.cover?.kind !== "image" || draft.cover.upload === null || live(now)(draft.cover.upload)
  const liveIds = new Set(media.map((m) => m.id))
  const mediaOverrides = Object.fromEntries(
    Object.entries(draft.mediaOverrides ?? {}).map(([p, ids]) => [p, ids.filter((id) => liveIds.has(id))])
  )
  const ids = new Set(accounts.map((a) => a.id))
  return {
    draft: { ...draft, media, mediaOverrides, cover: coverLive ? draft.cover : { kind: "image", upload: null } },
    chosen: (kept.chosen ?? []).filter((id) => ids.has(id)),
    expired: draft.media.length - media.length + (coverLive ? 0 : 1)
  }
}
