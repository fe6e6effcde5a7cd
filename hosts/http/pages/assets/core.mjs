// The app's shared helpers: its words, HTML that escapes, the API with the session's CSRF token, the status
// line, times in the workspace's zone and the networks' names. Every view's module imports them from here.

const strings = JSON.parse(document.getElementById("strings").textContent)
const csrf = document.querySelector('meta[name="csrf-token"]').content
export const timeZone = document.querySelector('meta[name="time-zone"]').content
export const lang = document.documentElement.lang
export const main = document.getElementById("main")
const statusBox = document.getElementById("status")

export const t = (key, vars = {}) => (strings[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""))

// ---- HTML that escapes whatever it is given, unless it is already HTML ----
class Html {
  constructor(text) {
    this.text = text
  }
  toString() {
    return this.text
  }
}
const escapes = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
const escapeText = (value) => String(value).replace(/[&<>"']/g, (c) => escapes[c])
const show = (value) =>
  value === null || value === undefined || value === false
    ? ""
    : value instanceof Html
      ? value.text
      : Array.isArray(value)
        ? value.map(show).join("")
        : escapeText(value)
export const html = (parts, ...values) =>
  new Html(parts.reduce((out, part, i) => out + part + (i < values.length ? show(values[i]) : ""), ""))

// ---- The API ----
export const api = async (path, { method = "GET", body, keepalive = false } = {}) => {
  const headers = { accept: "application/json", "x-csrf-token": csrf }
  if (method !== "GET") headers["content-type"] = "application/json"
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: "same-origin",
    keepalive,
    body: method === "GET" ? undefined : JSON.stringify(body ?? {})
  })
  if (response.status === 401) location.assign("/signin")
  const data = await response.json().catch(() => null)
  return { ok: response.ok, status: response.status, data }
}
export const problem = (result) => {
  const error = result.data?.error
  return error ? `${error.message} ${error.hint ?? ""}`.trim() : `${t("error.generic")} ${result.status}`
}
/** The API's refusal in the page's language: its code's sentence when the app has one, else the API's own words. */
export const refusal = (result) => {
  const code = result.data?.error?.code
  const fields = result.data?.error?.details?.fields
  const known = code && strings[`api.${code}`]
  if (!known) return problem(result)
  return Array.isArray(fields) && fields.length > 0 ? `${known} (${fields.join(", ")})` : known
}

let statusTimer
export const say = (message, kind = "info") => {
  statusBox.textContent = message
  statusBox.className = `toast ${kind} shown`
  clearTimeout(statusTimer)
  statusTimer = setTimeout(() => statusBox.classList.remove("shown"), 6000)
}

// ---- Times in the workspace's time zone ----
export const when = (iso) =>
  iso === null
    ? ""
    : new Intl.DateTimeFormat(lang, {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZone,
        timeZoneName: "short"
      }).format(new Date(iso))
/** "5 minutes ago", in the page's language; the absolute time (workspace's zone) goes beside it. */
const relative = (iso) => {
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000)
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" })
  const units = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60]
  ]
  for (const [unit, size] of units)
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit)
  return format.format(0, "second")
}
export const ago = (iso) =>
  html`<time datetime="${iso}" data-relative="${iso}">${relative(iso)}</time> <span class="muted">(${when(iso)})</span>`
// Relative times stay true while the page is open.
setInterval(() => {
  for (const el of document.querySelectorAll("time[data-relative]")) el.textContent = relative(el.dataset.relative)
}, 30_000)

export const zoneOffset = (ms) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value])
  )
  return (
    Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second) -
    Math.floor(ms / 1000) * 1000
  )
}
export const toZoned = (iso) => {
  const ms = iso === null ? Date.now() + 3600_000 : Date.parse(iso)
  return new Date(ms + zoneOffset(ms)).toISOString().slice(0, 16)
}

// The networks' names, from their folders' declarations (served with the page, never copied here).
const networkNames = JSON.parse(document.getElementById("networks").textContent)
export const networkName = (platform) => networkNames[platform] ?? platform
export const badge = (status) => html`<span class="badge ${status}">${t(`status.${status}`)}</span>`

/** Media large enough to judge (the 480 px preview, up to 240 px high); each opens to its full width. */
export const mediaStrip = (post) =>
  post.mediaIds.length === 0
    ? ""
    : html`<ol class="media" aria-label="${t("post.media")}">${post.mediaIds.map(
        (id, i) =>
          html`<li><button type="button" class="media-toggle" data-act="media" aria-expanded="false" aria-label="${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}: ${t("queue.expand")}"><img src="/api/v1/media/${encodeURIComponent(id)}/preview" alt="${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}" loading="lazy"></button>${post.mediaIds.length > 1 ? html`<span aria-hidden="true">${i + 1}</span>` : ""}</li>`
      )}</ol>`

export const snippet = (text) => (text.length > 60 ? `${text.slice(0, 60)}…` : text)
