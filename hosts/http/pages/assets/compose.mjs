// The composer (Preact components with htm, no build step): a person writes a post, sees each
// network's advice from the dry run as they type, and publishes it now, schedules it or queues it.
import { render, useEffect, useLayoutEffect, useRef, useState } from "./vendor/preact-htm-3.1.1.mjs"
import { Advice } from "./composeAdvice.mjs"
import { blank, bodyOf, hasImageOn, oneVideo, slotsOf } from "./composeDraft.mjs"
import { forgetDraft, keepDraft, restoreDraft } from "./composeKeep.mjs"
import { NetworkOptions } from "./composeOptions.mjs"
import { PerNetwork } from "./composeOverrides.mjs"
import {
  api,
  CoverPicker,
  FieldError,
  fieldProps,
  html,
  MediaPicker,
  networkName,
  t,
  TextList,
  timeZone,
  uploadItem,
  when
} from "./composeParts.mjs"

const ADVICE_DELAY_MS = 350
const pollDurations = [60, 360, 1440, 4320, 10080]

const Composer = ({ accounts }) => {
  // The draft kept in this browser, read once before the first drawing so nothing overwrites it first.
  const [restored, setRestored] = useState(() => restoreDraft(accounts))
  const [chosen, setChosen] = useState(() =>
    restored !== null ? restored.chosen : accounts.length === 1 ? [accounts[0].id] : []
  )
  const [draft, setDraft] = useState(() => restored?.draft ?? blank())
  const [advice, setAdvice] = useState(null)
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(null)
  const [submitError, setSubmitError] = useState(null)
  const [sending, setSending] = useState(false)
  const done = useRef(null)
  const inFlight = useRef(false)
  const edit = (patch) => {
    setDraft((d) => ({ ...d, ...patch }))
    setSubmitError(null)
  }

  // Kept as one types (uploads in flight are kept once done); a sent or emptied draft is forgotten.
  useEffect(() => keepDraft(draft, chosen), [draft, chosen])
  const discard = () => {
    forgetDraft()
    setRestored(null)
    setDraft(blank())
    setChosen(accounts.length === 1 ? [accounts[0].id] : [])
    setAdvice(null)
    document.getElementById("compose-text")?.focus()
  }

  const platforms = [...new Set(accounts.filter((a) => chosen.includes(a.id)).map((a) => a.platform))]
  const body = bodyOf(draft, chosen, platforms)
  const mediaIds = body.mediaIds ?? []
  const key = JSON.stringify(body)
  const written = draft.text.trim() !== "" || mediaIds.length > 0

  // The dry run's advice, asked a moment after the last change; an answer to an older draft is dropped.
  useEffect(() => {
    if (chosen.length === 0 || !written) {
      setAdvice(null)
      return
    }
    const abort = new AbortController()
    const timer = setTimeout(async () => {
      setBusy(true)
      const result = await api("/compose/advice", { method: "POST", body, signal: abort.signal }).catch(() => null)
      if (abort.signal.aborted) return
      setBusy(false)
      if (result?.ok) setAdvice(result.data)
      else if (result?.data?.error) setAdvice({ valid: false, error: result.data.error, warnings: [], targets: [] })
    }, ADVICE_DELAY_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [key])

  const upload = (files) => {
    for (const file of files) {
      const item = uploadItem(file, (done) =>
        setDraft((d) => ({ ...d, media: d.media.map((m) => (m.key === done.key ? done : m)) }))
      )
      setDraft((d) => ({ ...d, media: [...d.media, item] }))
    }
  }

  // A refused send is announced (an alert); the live advice's refusals are not, word by word as one types.
  const shown =
    submitError !== null
      ? [{ ...submitError, alert: true }]
      : [advice?.error, ...(advice?.targets ?? []).map((x) => x.error)].filter(Boolean)
  const errorsAt = (slot) => shown.filter((e) => slotsOf(e).includes(slot))

  const submit = async (event) => {
    event.preventDefault()
    // Not disabled while sending: a disabled button would drop the keyboard's focus to the page.
    if (inFlight.current) return
    inFlight.current = true
    setSending(true)
    const result = await api("/posts", { method: "POST", body }).finally(() => {
      inFlight.current = false
    })
    setSending(false)
    if (!result.ok) {
      setSubmitError(result.data?.error ?? { code: "internal_error", message: t("error.generic"), details: {} })
      setSent(null)
      return
    }
    const post = result.data.post
    setSent({ mode: draft.mode, post })
    forgetDraft()
    setRestored(null)
    setDraft(blank())
    setAdvice(null)
  }
  // Focus moves as soon as the answer is drawn (a layout effect: Preact runs plain effects after paint).
  useLayoutEffect(() => {
    if (sent !== null) done.current?.focus()
  }, [sent])
  // A refused send takes the keyboard to the first field it names (else to the refusal by the button).
  useLayoutEffect(() => {
    if (submitError === null) return
    const form = document.querySelector("form.composer")
    ;(form?.querySelector("[aria-invalid=true]") ?? form?.querySelector(".field-error"))?.focus?.()
  }, [submitError])

  const toggle = (id) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]))
  const uploading = draft.media.some((m) => m.status === "uploading") || draft.cover?.upload?.status === "uploading"
  const action = { now: "compose.publishNow", schedule: "compose.schedule", queue: "compose.addToQueue" }[draft.mode]
  const pollOn = draft.poll !== null

  return html`<form class="composer" noValidate onSubmit=${submit} aria-labelledby="compose-title">
<h1 id="compose-title">${t("nav.compose")}</h1>
${restored && html`<p class="restored" role="status">${t("compose.draftRestored")} · <button type="button" class="link" onClick=${discard}>${t("compose.discardDraft")}</button>${restored.expired > 0 ? html` <span class="muted">${t("compose.mediaExpired", { n: restored.expired })}</span>` : ""}</p>`}
${sent && html`<p class="sent" role="status" tabindex="-1" ref=${done}>${sent.mode === "now" ? t("compose.sentNow") : t(sent.mode === "queue" ? "compose.sentQueue" : "compose.sentScheduled", { when: when(sent.post.scheduledFor) })} <a href=${sent.mode === "now" ? "/app/posts" : "/app/calendar"}>${t(sent.mode === "now" ? "nav.posts" : "nav.calendar")}</a></p>`}
<fieldset class="targets" aria-describedby="targets-error"><legend>${t("compose.targets")}</legend>
${accounts.map((a) => html`<label key=${a.id} class="target"><input type="checkbox" checked=${chosen.includes(a.id)} onChange=${() => toggle(a.id)} /> ${networkName(a.platform)} <span class="muted">@${a.username}</span>${a.status === "connected" ? "" : html` <span class="badge needs_reconnection">${t("accounts.needsReconnection")}</span>`}</label>`)}
<${FieldError} id="targets-error" errors=${errorsAt("targets")} /></fieldset>
<div class="field"><label for="compose-text">${t("compose.text")}</label>
<textarea id="compose-text" rows="6" value=${draft.text} onInput=${(e) => edit({ text: e.target.value })} ...${fieldProps("compose-text", errorsAt("content"))}></textarea>
<${FieldError} id="compose-text-error" errors=${errorsAt("content")} /></div>
<${MediaPicker} media=${draft.media} onFiles=${upload} onRemove=${(k) => edit({ media: draft.media.filter((m) => m.key !== k) })} />
<${FieldError} id="media-error" errors=${errorsAt("media")} />
${oneVideo(draft) && html`<${CoverPicker} cover=${draft.cover} onChange=${(cover) => edit({ cover })} errors=${errorsAt("cover")} />`}
<${Advice} advice=${advice} accounts=${accounts} busy=${busy} />
${platforms.length > 0 && html`<${PerNetwork} platforms=${platforms} draft=${draft} edit=${edit} errorsAt=${errorsAt} />`}
<${NetworkOptions} accounts=${accounts} chosen=${chosen} values=${draft.options} onChange=${(options) => edit({ options })} errorsAt=${errorsAt} hasImageOn=${hasImageOn(draft)} />
<div class="field"><label for="compose-comment">${t("compose.firstComment")}</label>
<textarea id="compose-comment" rows="2" value=${draft.firstComment} onInput=${(e) => edit({ firstComment: e.target.value })} ...${fieldProps("compose-comment", errorsAt("firstComment"))}></textarea>
<${FieldError} id="compose-comment-error" errors=${errorsAt("firstComment")} /></div>
<fieldset class="thread"><legend>${t("compose.thread")}</legend>
<${TextList} id="reply" items=${draft.thread} multiline=${true} max=${20} label=${(n) => t("compose.reply", { n })} removeLabel=${(n) => t("compose.removeReply", { n })} addLabel=${t("compose.addReply")} onChange=${(thread) => edit({ thread })} errorsOf=${(i) => errorsAt(`thread-${i}`)} />
<${FieldError} id="thread-error" errors=${errorsAt("thread")} /></fieldset>
<fieldset class="poll"><legend>${t("compose.poll")}</legend>
<label><input type="checkbox" checked=${pollOn} onChange=${() => edit({ poll: pollOn ? null : { options: ["", ""], duration: 1440, question: "" } })} /> ${t("compose.addPoll")}</label>
${
  pollOn &&
  html`<${TextList} id="choice" items=${draft.poll.options} min=${2} max=${4} label=${(n) => t("compose.choice", { n })} removeLabel=${(n) => t("compose.removeChoice", { n })} addLabel=${t("compose.addChoice")} onChange=${(options) => edit({ poll: { ...draft.poll, options } })} errorsOf=${() => []} />
<label for="poll-duration">${t("compose.pollDuration")}</label> <select id="poll-duration" value=${draft.poll.duration} onChange=${(e) => edit({ poll: { ...draft.poll, duration: Number(e.target.value) } })}>${pollDurations.map((m) => html`<option value=${m}>${t("post.pollDuration", { m })}</option>`)}</select>
<div class="field"><label for="poll-question">${t("compose.pollQuestion")}</label> <input id="poll-question" type="text" value=${draft.poll.question} onInput=${(e) => edit({ poll: { ...draft.poll, question: e.target.value } })} /></div>`
}
<${FieldError} id="poll-error" errors=${errorsAt("poll")} /></fieldset>
<fieldset class="when" aria-describedby="when-error"><legend>${t("compose.when")}</legend>
${["now", "schedule", "queue"].map((mode) => html`<label key=${mode}><input type="radio" name="mode" value=${mode} checked=${draft.mode === mode} onChange=${() => edit({ mode })} /> ${t(`compose.mode.${mode}`)}</label>`)}
${draft.mode === "schedule" && html`<label for="compose-at">${t("compose.at", { tz: timeZone })}</label> <input id="compose-at" type="datetime-local" value=${draft.local} onInput=${(e) => edit({ local: e.target.value })} aria-describedby="when-error" aria-invalid=${errorsAt("when").length > 0 ? "true" : undefined} />`}
${draft.mode === "queue" && html`<p class="muted">${t("compose.queueHelp")}</p>`}
${advice?.planned && draft.mode !== "now" && html`<p class="muted planned">${t("compose.planned", { when: when(advice.planned.scheduledFor) })}</p>`}
<${FieldError} id="when-error" errors=${errorsAt("when")} /></fieldset>
<${FieldError} id="general-error" errors=${errorsAt("general")} />
<p class="submit"><button disabled=${uploading} aria-busy=${sending ? "true" : "false"}>${t(action)}</button>${uploading ? html` <span class="muted">${t("compose.waitUploads")}</span>` : ""}</p>
</form>`
}

const start = async () => {
  const main = document.getElementById("main")
  const result = await api("/accounts")
  const accounts = result.data?.accounts ?? []
  main.textContent = ""
  if (accounts.length === 0) {
    render(
      html`<h1>${t("nav.compose")}</h1><p class="empty">${t("compose.noAccounts")} <a href="/app/accounts">${t("nav.accounts")}</a></p>`,
      main
    )
    return
  }
  render(html`<${Composer} accounts=${accounts} />`, main)
}

start()
