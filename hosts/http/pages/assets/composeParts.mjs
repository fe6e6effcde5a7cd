// The composer's parts: the page's words and API, and the small components compose.mjs puts together.
import { html, useLayoutEffect, useRef, useState } from "./vendor/preact-htm-3.1.1.mjs"

export { html }

const strings = JSON.parse(document.getElementById("strings").textContent)
const networkNames = JSON.parse(document.getElementById("networks").textContent)
export const csrf = document.querySelector('meta[name="csrf-token"]').content
export const timeZone = document.querySelector('meta[name="time-zone"]').content
export const lang = document.documentElement.lang

export const t = (key, vars = {}) => (strings[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""))
export const networkName = (platform) => networkNames[platform] ?? platform

/** A call to /api/v1 as the signed-in person (session cookie, CSRF token); a FormData body goes as multipart. */
export const api = async (path, { method = "GET", body, signal } = {}) => {
  const headers = { accept: "application/json", "x-csrf-token": csrf }
  const form = body instanceof FormData
  if (method !== "GET" && !form) headers["content-type"] = "application/json"
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: "same-origin",
    signal,
    body: method === "GET" ? undefined : form ? body : JSON.stringify(body ?? {})
  })
  if (response.status === 401) location.assign("/signin")
  const data = await response.json().catch(() => null)
  return { ok: response.ok, status: response.status, data }
}

/** A time in the workspace's zone, in the page's language. */
export const when = (iso) =>
  new Intl.DateTimeFormat(lang, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short"
  }).format(new Date(iso))

/** "YYYY-MM-DDTHH:MM" in the workspace's zone, an hour from now on the hour: the schedule field's first value. */
export const inAnHour = () => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit"
    })
      .formatToParts(new Date(Date.now() + 3_600_000))
      .map((p) => [p.type, p.value])
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:00`
}

/**
 * A refusal in the spec's words (the API's own message); on a page in another language the app's
 * sentence for its code goes first, and the API's words follow marked as English.
 */
export const Refusal = ({ error }) => {
  const known = lang !== "en" ? strings[`api.${error.code}`] : undefined
  return known ? html`${known} <span lang="en">${error.message}</span>` : html`<span>${error.message}</span>`
}

/** The refusals that name a field (details.fields), beside it; a refused send's as an alert, heard once. */
export const FieldError = ({ id, errors }) =>
  errors.length === 0
    ? html`<div id=${id}></div>`
    : html`<div id=${id} class="field-error" role=${errors.some((e) => e.alert) ? "alert" : undefined} tabindex="-1">${errors.map(
        (error) => html`<p><${Refusal} error=${error} /></p>`
      )}</div>`

/** The field's error slot and state for a text field: its id, aria-describedby and aria-invalid. */
export const fieldProps = (id, errors) => ({
  "aria-describedby": `${id}-error`,
  "aria-invalid": errors.length > 0 ? "true" : undefined
})

/** Media: a drop zone with a file picker; each upload shows its preview (the server's) and can be removed. */
export const MediaPicker = ({ media, onFiles, onRemove }) => {
  const [over, setOver] = useState(false)
  const input = useRef(null)
  const drop = (event) => {
    event.preventDefault()
    setOver(false)
    if (event.dataTransfer?.files?.length) onFiles([...event.dataTransfer.files])
  }
  return html`<fieldset class="media-picker">
<legend>${t("compose.media")}</legend>
<div class=${`drop${over ? " over" : ""}`} onDragOver=${(e) => {
    e.preventDefault()
    setOver(true)
  }} onDragLeave=${() => setOver(false)} onDrop=${drop}>
<p>${t("compose.dropHere")}</p>
<label class="file-button">${t("compose.chooseFiles")}<input ref=${input} type="file" class="sr-only" multiple accept="image/*,video/*" onChange=${(
    e
  ) => {
    onFiles([...e.target.files])
    e.target.value = ""
  }} /></label>
</div>
${
  media.length > 0 &&
  html`<ol class="uploads" aria-label=${t("compose.uploads")}>${media.map(
    (m, i) => html`<li key=${m.key} class=${m.status}>
${m.status === "done" ? html`<img src=${`/api/v1/media/${encodeURIComponent(m.id)}/preview`} alt=${t("compose.preview", { name: m.name })} onError=${(e) => e.target.classList.add("none")} />` : ""}
<span class="upload-name">${i + 1}. ${m.name}</span>
${m.status === "uploading" ? html`<span class="muted">${t("compose.uploading")}</span>` : ""}
${m.status === "failed" ? html`<span class="error" role="alert"><${Refusal} error=${m.error} /></span>` : ""}
<button type="button" class="secondary small" onClick=${() => onRemove(m.key)} aria-label=${t("compose.removeMedia", { name: m.name })}>${t("compose.remove")}</button>
</li>`
  )}</ol>`
}
</fieldset>`
}

/** A list of texts (thread replies, poll choices): each labelled with its place, removable, one more on demand. */
export const TextList = ({ id, items, label, addLabel, removeLabel, max, min = 0, onChange, errorsOf, multiline }) => {
  const last = useRef(null)
  const [added, setAdded] = useState(0)
  useLayoutEffect(() => {
    if (added > 0) last.current?.focus()
  }, [added])
  const set = (i, value) => onChange(items.map((x, j) => (j === i ? value : x)))
  return html`<div class="text-list">
${items.map((value, i) => {
  const fieldId = `${id}-${i}`
  const errors = errorsOf(i)
  const props = {
    id: fieldId,
    value,
    ref: i === items.length - 1 ? last : undefined,
    onInput: (e) => set(i, e.target.value),
    ...fieldProps(fieldId, errors)
  }
  return html`<div class="list-item"><label for=${fieldId}>${label(i + 1)}</label>
${multiline ? html`<textarea rows="2" ...${props}></textarea>` : html`<input type="text" ...${props} />`}
${items.length > min ? html`<button type="button" class="secondary small" aria-label=${removeLabel(i + 1)} onClick=${() => onChange(items.filter((_, j) => j !== i))}>${t("compose.remove")}</button>` : ""}
<${FieldError} id=${`${fieldId}-error`} errors=${errors} /></div>`
})}
${
  items.length < max &&
  html`<button type="button" class="secondary small" onClick=${() => {
    onChange([...items, ""])
    setAdded((n) => n + 1)
  }}>${addLabel}</button>`
}
</div>`
}

/** Uploads one file (POST /media): its item in the draft, first uploading, then done (id, image or video) or failed. */
export const uploadItem = (file, onDone) => {
  const item = { key: `${Date.now()}-${Math.random()}`, name: file.name, status: "uploading" }
  const form = new FormData()
  form.append("file", file, file.name)
  api("/media", { method: "POST", body: form }).then((result) =>
    onDone(
      result.ok
        ? {
            ...item,
            status: "done",
            id: result.data.media.id,
            type: result.data.media.type,
            expiresAt: result.data.media.expiresAt
          }
        : {
            ...item,
            status: "failed",
            error: result.data?.error ?? { code: "internal_error", message: String(result.status) }
          }
    )
  )
  return item
}

const coverKinds = { none: "compose.coverNone", frame: "compose.coverFrame", image: "compose.coverImage" }

/** A lone video's cover: the network's choice, a frame some seconds in, or an uploaded image (the request's cover). */
export const CoverPicker = ({ cover, onChange, errors }) => {
  const kind = cover?.kind ?? "none"
  const described = { "aria-describedby": "cover-error", "aria-invalid": errors.length > 0 ? "true" : undefined }
  const choose = (next) =>
    onChange(next === "none" ? null : next === "frame" ? { kind: next, seconds: "0" } : { kind: next, upload: null })
  const upload = cover?.upload
  return html`<fieldset class="cover"><legend>${t("compose.cover")}</legend>
${Object.entries(coverKinds).map(
  ([k, label]) =>
    html`<label key=${k}><input type="radio" name="cover" value=${k} checked=${kind === k} onChange=${() => choose(k)} /> ${t(label)}</label>`
)}
${kind === "frame" && html`<label for="cover-at">${t("compose.coverAt")}</label> <input id="cover-at" type="number" min="0" step="0.1" inputmode="decimal" value=${cover.seconds} onInput=${(e) => onChange({ ...cover, seconds: e.target.value })} ...${described} />`}
${
  kind === "image" &&
  html`<p><label class="file-button">${t("compose.coverChoose")}<input type="file" class="sr-only" accept="image/*" onChange=${(
    e
  ) => {
    const file = e.target.files[0]
    e.target.value = ""
    if (file) onChange({ kind, upload: uploadItem(file, (done) => onChange({ kind, upload: done })) })
  }} ...${described} /></label></p>
${upload?.status === "done" ? html`<img class="cover-image" src=${`/api/v1/media/${encodeURIComponent(upload.id)}/preview`} alt=${t("compose.preview", { name: upload.name })} />` : ""}
${upload?.status === "uploading" ? html`<span class="muted">${t("compose.uploading")}</span>` : ""}
${upload?.status === "failed" ? html`<span class="error" role="alert"><${Refusal} error=${upload.error} /></span>` : ""}`
}
<${FieldError} id="cover-error" errors=${errors} /></fieldset>`
}
