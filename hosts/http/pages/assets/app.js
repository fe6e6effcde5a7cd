// Herald's app for people: plain ES module, no build step. Every view is drawn from /api/v1 with the
// session cookie and the CSRF token; everything a user or an agent wrote goes through `html`, which escapes.

import { changedPost, moreFields } from "./editParts.mjs"

const strings = JSON.parse(document.getElementById("strings").textContent)
const csrf = document.querySelector('meta[name="csrf-token"]').content
const timeZone = document.querySelector('meta[name="time-zone"]').content
const lang = document.documentElement.lang
const main = document.getElementById("main")
const statusBox = document.getElementById("status")

const t = (key, vars = {}) => (strings[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""))

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
const html = (parts, ...values) =>
  new Html(parts.reduce((out, part, i) => out + part + (i < values.length ? show(values[i]) : ""), ""))

// ---- The API ----
const api = async (path, { method = "GET", body, keepalive = false } = {}) => {
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
const problem = (result) => {
  const error = result.data?.error
  return error ? `${error.message} ${error.hint ?? ""}`.trim() : `${t("error.generic")} ${result.status}`
}
/** The API's refusal in the page's language: its code's sentence when the app has one, else the API's own words. */
const refusal = (result) => {
  const code = result.data?.error?.code
  const fields = result.data?.error?.details?.fields
  const known = code && strings[`api.${code}`]
  if (!known) return problem(result)
  return Array.isArray(fields) && fields.length > 0 ? `${known} (${fields.join(", ")})` : known
}

let statusTimer
const say = (message, kind = "info") => {
  statusBox.textContent = message
  statusBox.className = `toast ${kind} shown`
  clearTimeout(statusTimer)
  statusTimer = setTimeout(() => statusBox.classList.remove("shown"), 6000)
}

// ---- Times in the workspace's time zone ----
const when = (iso) =>
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
const ago = (iso) =>
  html`<time datetime="${iso}" data-relative="${iso}">${relative(iso)}</time> <span class="muted">(${when(iso)})</span>`
// Relative times stay true while the page is open.
setInterval(() => {
  for (const el of document.querySelectorAll("time[data-relative]")) el.textContent = relative(el.dataset.relative)
}, 30_000)

const zoneOffset = (ms) => {
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
const toZoned = (iso) => {
  const ms = iso === null ? Date.now() + 3600_000 : Date.parse(iso)
  return new Date(ms + zoneOffset(ms)).toISOString().slice(0, 16)
}

// The networks' names, from their folders' declarations (served with the page, never copied here).
const networkNames = JSON.parse(document.getElementById("networks").textContent)
const networkName = (platform) => networkNames[platform] ?? platform
const badge = (status) => html`<span class="badge ${status}">${t(`status.${status}`)}</span>`

// ---- The approval queue ----
const queue = { items: [], notes: {} }

/** A text as one network takes it: the part after the network's cut struck through, and said so for screen readers. */
const textOn = (text, network) =>
  text.fits
    ? html`${text.shown}`
    : html`${text.shown}<span class="cut" role="img" aria-label="${t("post.cut")}">✂</span><del>${text.rest}</del><span class="sr-only"> ${t("post.tooLong", { network })}</span>`

const networkCard = (post, n) => {
  const name = networkName(n.platform)
  const account = n.username === null ? "" : `@${n.username}`
  return html`<section class="network" aria-label="${name} ${account}">
<h3>${name} <span class="muted">${n.accountName ?? ""} ${account}</span></h3>
${n.mediaIds.join() === post.mediaIds.join() ? "" : mediaStrip({ mediaIds: n.mediaIds })}
<p class="text">${textOn(n.text, name)}</p>
<p class="count${n.text.fits ? "" : " over"}">${t("post.length", { length: n.text.length, limit: n.text.limit })}${n.text.fits ? "" : html` · ${t("post.tooLong", { network: name })}`}</p>
${
  n.thread.length > 0
    ? html`<h4>${t("post.thread")}</h4><ol class="thread">${n.thread.map((reply) => html`<li>${textOn(reply, name)} <span class="count${reply.fits ? "" : " over"}">${t("post.length", { length: reply.length, limit: reply.limit })}</span></li>`)}</ol>`
    : ""
}
${n.firstComment === null ? "" : html`<h4>${t("post.firstComment")}</h4><p class="comment">${textOn(n.firstComment, name)}</p>`}
${
  n.poll === null
    ? ""
    : html`<h4>${t("post.poll")}${n.poll.question ? html`: ${n.poll.question}` : ""}</h4><ul class="poll">${n.poll.options.map((o) => html`<li>${o}</li>`)}</ul><p class="muted">${t("post.pollDuration", { m: n.poll.durationMinutes })}</p>`
}
</section>`
}

/** Media large enough to judge (the 480 px preview, up to 240 px high); each opens to its full width. */
const mediaStrip = (post) =>
  post.mediaIds.length === 0
    ? ""
    : html`<ol class="media" aria-label="${t("post.media")}">${post.mediaIds.map(
        (id, i) =>
          html`<li><button type="button" class="media-toggle" data-act="media" aria-expanded="false" aria-label="${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}: ${t("queue.expand")}"><img src="/api/v1/media/${encodeURIComponent(id)}/preview" alt="${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}" loading="lazy"></button>${post.mediaIds.length > 1 ? html`<span aria-hidden="true">${i + 1}</span>` : ""}</li>`
      )}</ol>`

const snippet = (text) => (text.length > 60 ? `${text.slice(0, 60)}…` : text)

/** Each network's length by its own counting (from the API's per-target advice), in one line above the buttons. */
const lengths = (item) =>
  html`<ul class="lengths" aria-label="${t("queue.targets")}">${item.networks.map(
    (n) =>
      html`<li class="${n.text.fits ? "" : "over"}">${networkName(n.platform)} ${t("post.length", { length: n.text.length, limit: n.text.limit })}${n.text.fits ? "" : html` <span class="sr-only">${t("post.tooLong", { network: networkName(n.platform) })}</span><span aria-hidden="true">✂</span>`}</li>`
  )}</ul>`

const queueItem = (item) => {
  const { post } = item
  const note = queue.notes[post.id]
  const by = post.createdBy
  const long = post.content.length > 600
  return html`<article class="post" tabindex="-1" data-id="${post.id}" data-version="${item.version}" aria-labelledby="h-${post.id}">
<div class="post-head"><input type="checkbox" class="pick" aria-label="${t("queue.select")}: ${snippet(post.content)}">
<p class="muted asked">${t("queue.askedBy", { name: by.name })} <span class="badge">${by.kind === "key" ? t("queue.viaKey") : t("queue.viaPerson")}</span> · ${ago(post.createdAt)}</p></div>
<h2 id="h-${post.id}" class="lead${long ? " clamped" : ""}">${post.content}</h2>
${long ? html`<button type="button" class="link" data-act="more" aria-expanded="false">${t("queue.more")}</button>` : ""}
${mediaStrip(post)}
<p class="muted goes">${post.scheduledFor === null ? t("queue.now") : t("queue.at", { when: when(post.scheduledFor) })}</p>
${note ? html`<p class="notice" role="alert">${note}</p>` : ""}
${lengths(item)}
<div class="actions"><button data-act="approve">${t("queue.approve")}</button> <button class="secondary" data-act="reject-open" aria-expanded="false">${t("queue.reject")}</button> <button class="secondary" data-act="edit-open" aria-expanded="false">${t("edit.open")}</button> <button class="secondary" data-act="schedule-open" aria-expanded="false">${t("queue.schedule")}</button></div>
<form class="edit" hidden><label>${t("edit.content")}<textarea name="content" rows="6" required>${post.content}</textarea></label>
<label>${t("edit.firstComment")}<textarea name="firstComment" rows="2">${post.firstComment ?? ""}</textarea></label>
${moreFields(post, { html, t })}
<div class="edit-error" aria-live="assertive"></div>
<p><button>${t("edit.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<form class="reject" hidden><label>${t("queue.reason")}<textarea name="reason" maxlength="1000" rows="4"></textarea></label>
<p><button class="danger">${t("queue.confirmReject")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<form class="schedule" hidden><label>${t("queue.newTime", { tz: timeZone })} <input type="datetime-local" name="when" required value="${toZoned(post.scheduledFor)}"></label>
<p><button>${t("queue.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<details class="previews"${item.networks.some((n) => !n.text.fits) ? " open" : ""}><summary>${t("queue.targets")}</summary>
<div class="networks">${item.networks.map((n) => networkCard(post, n))}</div></details>
</article>`
}

const drawQueue = (focusId) => {
  // A post whose decision waits out its undo window stays hidden, whatever redraws the queue meanwhile.
  const items = queue.items.filter((item) => item.post.id !== pending?.id)
  main.innerHTML =
    items.length === 0
      ? html`<h1>${t("queue.title")}</h1><div class="empty"><p><strong>${t("queue.empty")}</strong></p><p>${t("queue.emptyHelp")}</p></div>`
          .text
      : html`<h1>${t("queue.title")} <span class="muted">(${items.length})</span></h1>
<p class="muted" id="shortcuts">${t("queue.shortcuts")}</p>
<div class="bulk" role="group" aria-label="${t("queue.selectAll")}"><label><input type="checkbox" id="select-all"> ${t("queue.selectAll")}</label>
<span id="selected-count" class="muted" aria-live="polite"></span>
<button data-bulk="approve" disabled>${t("queue.approveSelected")}</button> <button class="secondary" data-bulk="reject" disabled>${t("queue.rejectSelected")}</button></div>
${items.map(queueItem)}`.text
  const target = focusId === undefined ? null : main.querySelector(`article[data-id="${CSS.escape(focusId)}"]`)
  if (target) target.focus()
}

const loadQueue = async (focusId) => {
  const result = await api("/approvals")
  if (!result.ok) {
    main.innerHTML = html`<h1>${t("queue.title")}</h1><p class="notice" role="alert">${problem(result)}</p>`.text
    return
  }
  queue.items = result.data.items
  drawQueue(focusId)
}

const articles = () => [...main.querySelectorAll("article.post")]
const nextFocus = (article) => {
  const all = articles()
  const i = all.indexOf(article)
  return (all[i + 1] ?? all[i - 1])?.dataset.id
}
const picked = () => articles().filter((a) => a.querySelector(".pick").checked)
const updateSelection = () => {
  const count = picked().length
  const label = main.querySelector("#selected-count")
  if (label) label.textContent = count === 0 ? "" : t("queue.selected", { n: count })
  for (const b of main.querySelectorAll("[data-bulk]")) b.disabled = count === 0
  const all = main.querySelector("#select-all")
  if (all) all.checked = count > 0 && count === articles().length
}

// ---- Decisions with undo ----
// A decision is sent only when its undo window ends: the API has no "unapprove" (an approved post may be
// published at once) and a rejected post is deleted, so a compensating call could not undo either.
const UNDO_MS = 5000
let pending = null
let undoBar

const undoBox = () => {
  if (undoBar) return undoBar
  undoBar = document.createElement("div")
  undoBar.className = "undo"
  undoBar.hidden = true
  undoBar.innerHTML =
    html`<span role="status" aria-live="polite"></span> <button type="button" class="secondary">${t("queue.undo")}</button>`.text
  document.body.append(undoBar)
  undoBar.querySelector("button").addEventListener("click", () => undo())
  return undoBar
}

/** Hides the card now and sends the decision when the window ends (or at once, if another decision or leaving the page comes first). */
const decide = (article, kind, send) => {
  if (pending) flush()
  const id = article.dataset.id
  const focusAfter = nextFocus(article)
  article.hidden = true
  const box = undoBox()
  let left = UNDO_MS / 1000
  const label = () => t(kind === "approve" ? "queue.approvedUndo" : "queue.rejectedUndo", { s: left })
  box.querySelector("span").textContent = label()
  box.hidden = false
  const tick = setInterval(() => {
    left -= 1
    if (left > 0) box.querySelector("span").textContent = label()
  }, 1000)
  pending = { id, send, tick, timer: setTimeout(() => flush(), UNDO_MS) }
  const next = focusAfter === undefined ? null : main.querySelector(`article[data-id="${CSS.escape(focusAfter)}"]`)
  if (next) next.focus()
  else box.querySelector("button").focus()
}

const flush = (keepalive = false) => {
  if (!pending) return
  const { send, tick, timer } = pending
  clearInterval(tick)
  clearTimeout(timer)
  pending = null
  undoBar.hidden = true
  return send(keepalive)
}

const undo = () => {
  if (!pending) return
  const { id, tick, timer } = pending
  clearInterval(tick)
  clearTimeout(timer)
  pending = null
  undoBar.hidden = true
  // Drawn again (not just shown): the queue may have been redrawn while the card was hidden.
  drawQueue(id)
  say(t("queue.undone"))
}

// Leaving the page sends what is pending (keepalive lets the request outlive the page).
addEventListener("pagehide", () => flush(true))

const approve = (article) => {
  const id = article.dataset.id
  const version = article.dataset.version
  decide(article, "approve", async (keepalive) => {
    const result = await api(`/posts/${encodeURIComponent(id)}/approve`, {
      method: "POST",
      body: { version },
      keepalive
    })
    if (keepalive) return
    if (result.ok) {
      delete queue.notes[id]
      say(t("queue.approved"))
      return loadQueue(document.activeElement?.closest?.("article.post")?.dataset.id)
    }
    if (result.data?.error?.code === "post_changed") {
      queue.notes[id] = t("queue.changed")
      return loadQueue(id)
    }
    say(problem(result), "error")
    return loadQueue(id)
  })
}

const reject = (article, reason) => {
  const id = article.dataset.id
  closeForms(article)
  decide(article, "reject", async (keepalive) => {
    const result = await api(`/posts/${encodeURIComponent(id)}/reject`, {
      method: "POST",
      body: reason ? { reason } : {},
      keepalive
    })
    if (keepalive) return
    if (!result.ok) {
      say(problem(result), "error")
      return loadQueue(id)
    }
    say(t("queue.rejected"))
    return loadQueue(document.activeElement?.closest?.("article.post")?.dataset.id)
  })
}

/** A local time in the workspace's zone, sent as such: the API's own rules decide (a past time, one DST skips). */
const reschedule = async (article, local) => {
  const id = article.dataset.id
  const result = await api(`/posts/${encodeURIComponent(id)}/reschedule`, {
    method: "POST",
    body: { scheduledFor: { local, timeZone } }
  })
  if (!result.ok) {
    queue.notes[id] = refusal(result)
    return loadQueue(id)
  }
  delete queue.notes[id]
  say(t("queue.rescheduled"))
  return loadQueue(id)
}

/** Saves a person's edit (only what changed); the queue is drawn again so each network's length is counted anew. */
const saveEdit = async (article, form) => {
  const id = article.dataset.id
  const item = queue.items.find((i) => i.post.id === id)
  if (!item) return
  const body = changedPost(item.post, new FormData(form))
  if (Object.keys(body).length === 0) return closeForms(article)
  const button = form.querySelector("button:not([type])")
  button.disabled = true
  const result = await api(`/posts/${encodeURIComponent(id)}`, { method: "PATCH", body })
  button.disabled = false
  const box = form.querySelector(".edit-error")
  if (!result.ok) {
    box.innerHTML = html`<p class="error" role="alert">${refusal(result)}</p>`.text
    return form.elements.content.focus()
  }
  queue.notes[id] = t("edit.saved")
  return loadQueue(id)
}

const bulk = async (action) => {
  const chosen = picked()
  const body = { postIds: chosen.map((a) => a.dataset.id) }
  if (action === "approve") body.versions = Object.fromEntries(chosen.map((a) => [a.dataset.id, a.dataset.version]))
  const result = await api(`/posts/bulk-${action}`, { method: "POST", body })
  if (!result.ok) return say(problem(result), "error")
  const failed = result.data.results.filter((r) => !r.ok)
  for (const f of failed) if (f.error?.code === "post_changed") queue.notes[f.id] = t("queue.changed")
  say(
    t("queue.bulkDone", { ok: result.data.results.length - failed.length, failed: failed.length }),
    failed.length > 0 ? "error" : "info"
  )
  return loadQueue(failed[0]?.id)
}

const openForm = (article, name) => {
  for (const form of article.querySelectorAll("form")) form.hidden = !form.classList.contains(name)
  for (const b of article.querySelectorAll("[aria-expanded]"))
    b.setAttribute("aria-expanded", String(b.dataset.act === `${name}-open`))
  article.querySelector(`form.${name} textarea, form.${name} input`)?.focus()
}
const closeForms = (article) => {
  for (const form of article.querySelectorAll("form")) form.hidden = true
  for (const b of article.querySelectorAll("[aria-expanded]")) b.setAttribute("aria-expanded", "false")
  article.focus()
}

const queueView = () => {
  main.addEventListener("click", (event) => {
    const button = event.target.closest("button")
    if (!button) return
    if (button.dataset.bulk) return void bulk(button.dataset.bulk)
    const article = button.closest("article.post")
    if (!article) return
    const act = button.dataset.act
    if (act === "approve") approve(article)
    else if (act === "reject-open") openForm(article, "reject")
    else if (act === "schedule-open") openForm(article, "schedule")
    else if (act === "edit-open") openForm(article, "edit")
    else if (act === "close") closeForms(article)
    else if (act === "more") {
      const open = button.getAttribute("aria-expanded") !== "true"
      article.querySelector(".lead").classList.toggle("clamped", !open)
      button.setAttribute("aria-expanded", String(open))
      button.textContent = t(open ? "queue.less" : "queue.more")
    } else if (act === "media") {
      const open = button.getAttribute("aria-expanded") !== "true"
      button.closest("li").classList.toggle("large", open)
      button.setAttribute("aria-expanded", String(open))
    }
  })
  main.addEventListener("submit", (event) => {
    event.preventDefault()
    const form = event.target
    const article = form.closest("article.post")
    if (form.classList.contains("reject")) reject(article, form.elements.reason.value.trim())
    else if (form.classList.contains("schedule")) reschedule(article, form.elements.when.value)
    else if (form.classList.contains("edit")) saveEdit(article, form)
  })
  main.addEventListener("change", (event) => {
    if (event.target.id === "select-all")
      for (const box of main.querySelectorAll(".pick")) box.checked = event.target.checked
    if (event.target.matches(".pick, #select-all")) updateSelection()
  })
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, textarea, select")) return
    const all = articles()
    const current = document.activeElement?.closest?.("article.post")
    const i = current ? all.indexOf(current) : -1
    if (event.key === "Escape" && current) return closeForms(current)
    const moves = { j: 1, k: -1 }
    if (event.key in moves) {
      event.preventDefault()
      all[Math.min(all.length - 1, Math.max(0, i + moves[event.key]))]?.focus()
    } else if (event.key === "u" && pending) {
      event.preventDefault()
      undo()
    } else if (event.key === "?") main.querySelector("#shortcuts")?.classList.toggle("highlight")
    else if (current && !event.target.closest("button")) {
      if (event.key === "x") {
        const box = current.querySelector(".pick")
        box.checked = !box.checked
        updateSelection()
      } else if (event.key === "a") approve(current)
      else if (event.key === "r") openForm(current, "reject")
      else if (event.key === "s") openForm(current, "schedule")
      else if (event.key === "e") openForm(current, "edit")
      else return
      event.preventDefault()
    }
  })
  return loadQueue()
}

// ---- History (history.mjs, fetched on its view only): the view draws with the same helpers ----
const postsView = async () =>
  (await import("./history.mjs")).historyView({
    main,
    api,
    html,
    t,
    say,
    problem,
    refusal,
    when,
    badge,
    networkName,
    mediaStrip,
    snippet,
    timeZone,
    lang,
    zoneOffset,
    toZoned
  })

// ---- Accounts ----
const accountsView = async () => {
  const load = async () => {
    const [accounts, networks, grants] = await Promise.all([api("/accounts"), api("/networks"), api("/account-grants")])
    const grantEnd = new Map((grants.data?.grants ?? []).map((g) => [g.accountId, g.endsAt]))
    if (!accounts.ok) return say(problem(accounts), "error")
    const list = accounts.data.accounts
    const broken = list.filter((a) => a.status === "needs_reconnection")
    main.innerHTML = html`<h1>${t("accounts.title")}</h1>
${broken.length > 0 ? html`<div class="notice" role="alert"><p><strong>${t("accounts.reconnectAlert", { n: broken.length })}</strong></p></div>` : ""}
${list.length === 0 ? html`<p>${t("accounts.empty")}</p>` : ""}
<ul class="rows">${[...broken, ...list.filter((a) => a.status !== "needs_reconnection")].map(
      (
        a
      ) => html`<li class="row${a.status === "needs_reconnection" ? " broken" : ""}" data-id="${a.id}" data-platform="${a.platform}">
<div><strong>${networkName(a.platform)}</strong> ${a.name} <span class="muted">@${a.username}</span><br>
<span class="badge ${a.status}">${a.status === "needs_reconnection" ? t("accounts.needsReconnection") : t("accounts.connected")}</span>
<span class="muted">${t("accounts.since", { when: when(a.connectedAt) })}${grantEnd.get(a.id) ? ` · ${t("accounts.grantEnds", { when: when(grantEnd.get(a.id)) })}` : ""}</span></div>
<div>${a.status === "needs_reconnection" ? html`<button data-act="connect" data-platform="${a.platform}">${t("accounts.reconnect")} ${networkName(a.platform)} ${a.name}</button> ` : ""}<button class="secondary" data-act="disconnect" aria-label="${t("accounts.disconnect")} ${networkName(a.platform)} ${a.name}">${t("accounts.disconnect")}</button></div></li>`
    )}</ul>
<h2>${t("accounts.connect")}</h2>
<p class="connect">${(networks.data?.networks ?? []).map((n) => html`<button class="secondary" data-act="connect" data-platform="${n.platform}">${n.name}</button> `)}</p>`.text
  }
  main.addEventListener("click", async (event) => {
    const button = event.target.closest("button")
    if (!button) return
    if (button.dataset.act === "connect") {
      const result = await api(`/connect/${encodeURIComponent(button.dataset.platform)}`)
      if (!result.ok) return say(problem(result), "error")
      location.assign(result.data.url)
    } else if (button.dataset.act === "disconnect") {
      const row = button.closest("li")
      if (!confirm(t("accounts.confirmDisconnect", { name: row.querySelector("strong").textContent }))) return
      const result = await api(`/accounts/${encodeURIComponent(row.dataset.id)}/disconnect`, {
        method: "POST",
        body: {}
      })
      if (!result.ok) return say(problem(result), "error")
      return load()
    }
  })
  return load()
}

// ---- Keys and webhooks ----
const eventTypeNames = JSON.parse(document.getElementById("event-types").textContent)

const deliveryRow = (d) => {
  const answer = [d.responseCode, d.error].filter((x) => x !== null && x !== undefined && x !== "").join(" · ")
  return html`<li class="delivery ${d.status}" data-id="${d.id}"><span class="badge ${d.status === "failed" ? "failed" : d.status === "succeeded" ? "published" : ""}">${t(`delivery.${d.status}`)}</span> <code>${d.eventType}</code>
<span class="muted">${ago(d.lastAttemptAt ?? d.createdAt)} · ${t("hooks.tries", { n: d.attempts })}${d.responseTimeMs === null ? "" : ` · ${Math.round(d.responseTimeMs)} ms`}</span>
${d.status === "failed" || answer ? html`<p class="${d.status === "failed" ? "error" : "muted"}">${t("hooks.answer", { answer: answer || t("hooks.noAnswer") })}</p>` : ""}
${d.status === "failed" || (d.status === "pending" && d.attempts > 0) ? html`<button class="secondary" data-act="redeliver">${t("hooks.redeliver")}</button>` : ""}</li>`
}

/** One endpoint: its state, a warning while it fails, its event types, its actions, and its latest deliveries with the receiver's answers. */
const hookCard = (
  w,
  deliveries
) => html`<article class="post hook" data-id="${w.id}" data-url="${w.url}" aria-labelledby="wh-${w.id}">
<h3 id="wh-${w.id}" tabindex="-1"><code>${w.url}</code> <span class="badge ${w.enabled ? "connected" : "failed"}">${w.enabled ? t("hooks.on") : t("hooks.off")}</span></h3>
${w.disabledReason ? html`<p class="error">${w.disabledReason}</p>` : ""}
${w.failingSince ? html`<p class="notice">${t("hooks.failingSince", { when: when(w.failingSince) })}</p>` : ""}
<details><summary>${w.eventTypes.length === 0 ? t("hooks.typesAll") : t("hooks.typesSome", { n: w.eventTypes.length })}</summary>
<form class="hook-types"><fieldset><legend>${t("hooks.types")}</legend><p class="muted">${t("hooks.typesHelp")}</p><div class="types">${eventTypeNames.map(
  (type) =>
    html`<label><input type="checkbox" name="type" value="${type}"${w.eventTypes.includes(type) ? " checked" : ""}> <code>${type}</code></label>`
)}</div></fieldset><p><button>${t("hooks.saveTypes")}</button></p></form></details>
<p class="actions"><button class="secondary" data-act="hook-test">${t("hooks.test")}</button> <button class="secondary" data-act="hook-toggle" data-enabled="${String(w.enabled)}">${w.enabled ? t("hooks.disable") : t("hooks.enable")}</button> <button class="danger" data-act="hook-delete">${t("hooks.delete")}</button></p>
<h4>${t("hooks.deliveries")}</h4>
${deliveries.length === 0 ? html`<p class="muted">${t("hooks.noDeliveries")}</p>` : html`<ul class="deliveries">${deliveries.map(deliveryRow)}</ul>`}
</article>`

const keysView = async () => {
  const load = async () => {
    const [keys, hooks] = await Promise.all([api("/keys"), api("/webhooks")])
    if (!keys.ok) return say(problem(keys), "error")
    const deliveries = await Promise.all(
      (hooks.data?.webhooks ?? []).map((w) => api(`/webhooks/${encodeURIComponent(w.id)}/deliveries?limit=5`))
    )
    main.innerHTML = html`<h1>${t("keys.title")}</h1>
<ul class="rows" id="keys">${keys.data.keys.map(
      (
        k
      ) => html`<li class="row${k.revokedAt ? " revoked" : ""}" data-id="${k.id}"><div><strong>${k.name}</strong> <code>${k.prefix}…</code><br>
<span class="muted">${k.requireApproval ? t("keys.asks") : t("keys.direct")} · ${t("keys.created", { when: when(k.createdAt) })}${"lastUsedAt" in k ? ` · ${k.lastUsedAt ? t("keys.lastUsed", { when: when(k.lastUsedAt) }) : t("keys.neverUsed")}` : ""}${k.revokedAt ? ` · ${t("keys.revoked", { when: when(k.revokedAt) })}` : ""}</span></div>
${k.revokedAt ? "" : html`<div><button class="secondary" data-act="revoke" aria-label="${t("keys.revoke")} ${k.name}">${t("keys.revoke")}</button></div>`}</li>`
    )}${(keys.data.connections ?? []).map(
      (
        c
      ) => html`<li class="row${c.revokedAt ? " revoked" : ""}" data-id="${c.id}"><div><strong>${c.name}</strong> <span class="muted">${t("keys.connection", { client: c.clientName })}</span><br>
<span class="muted">${c.requireApproval ? t("keys.asks") : t("keys.direct")} · ${t("keys.created", { when: when(c.createdAt) })} · ${c.lastUsedAt ? t("keys.lastUsed", { when: when(c.lastUsedAt) }) : t("keys.neverUsed")}${c.revokedAt ? ` · ${t("keys.revoked", { when: when(c.revokedAt) })}` : ""}</span></div>
${c.revokedAt ? "" : html`<div><button class="secondary" data-act="revoke" aria-label="${t("keys.revoke")} ${c.name}">${t("keys.revoke")}</button></div>`}</li>`
    )}</ul>
<form id="newkey" class="inline"><label>${t("keys.name")} <input name="name" required maxlength="100"></label> <label><input type="checkbox" name="asks" checked> ${t("keys.asksFirst")}</label> <button>${t("keys.create")}</button></form>
<p id="secret" aria-live="polite"></p>
<h2>${t("hooks.title")}</h2>
<div id="webhooks">${(hooks.data?.webhooks ?? []).length === 0 ? html`<p>${t("hooks.none")}</p>` : hooks.data.webhooks.map((w, i) => hookCard(w, deliveries[i].data?.deliveries ?? []))}</div>
<form id="newhook" class="inline"><label>${t("hooks.url")} <input name="url" type="url" required placeholder="https://example.org/herald"></label> <button>${t("hooks.add")}</button></form>
<p id="hooksecret" aria-live="polite"></p>`.text
  }
  main.addEventListener("submit", async (event) => {
    event.preventDefault()
    const form = new FormData(event.target)
    if (event.target.id === "newkey") {
      const result = await api("/keys", {
        method: "POST",
        body: { name: form.get("name"), requireApproval: form.get("asks") === "on" }
      })
      if (!result.ok) return say(problem(result), "error")
      await load()
      main.querySelector("#secret").innerHTML = html`${t("keys.shownOnce")} <code>${result.data.apiKey}</code>`.text
    } else if (event.target.classList.contains("hook-types")) {
      const card = event.target.closest("article.hook")
      const result = await api(`/webhooks/${encodeURIComponent(card.dataset.id)}`, {
        method: "PATCH",
        body: { eventTypes: form.getAll("type") }
      })
      if (!result.ok) return say(problem(result), "error")
      await load()
      say(t("hooks.saved"))
    } else if (event.target.id === "newhook") {
      const result = await api("/webhooks", { method: "POST", body: { url: form.get("url") } })
      if (!result.ok) return say(problem(result), "error")
      await load()
      main.querySelector("#hooksecret").innerHTML = html`${t("hooks.secret")} <code>${result.data.secret}</code>`.text
    }
  })
  const hookAction = async (button) => {
    const card = button.closest("article.hook")
    const id = encodeURIComponent(card.dataset.id)
    const act = button.dataset.act
    if (act === "hook-delete" && !confirm(t("hooks.confirmDelete", { url: card.dataset.url }))) return
    const result =
      act === "hook-test"
        ? await api(`/webhooks/${id}/test`, { method: "POST", body: {} })
        : act === "hook-toggle"
          ? await api(`/webhooks/${id}`, { method: "PATCH", body: { enabled: button.dataset.enabled !== "true" } })
          : act === "hook-delete"
            ? await api(`/webhooks/${id}`, { method: "DELETE" })
            : await api(`/webhooks/${id}/deliveries/${encodeURIComponent(button.closest("li").dataset.id)}/redeliver`, {
                method: "POST",
                body: {}
              })
    if (!result.ok) return say(problem(result), "error")
    await load()
    say(
      t(
        { "hook-test": "hooks.tested", "hook-toggle": "hooks.saved", "hook-delete": "hooks.deleted" }[act] ??
          "hooks.redelivered"
      )
    )
    main.querySelector(`article.hook[data-id="${CSS.escape(card.dataset.id)}"] h3`)?.focus()
  }
  main.addEventListener("click", async (event) => {
    const hookButton = event.target.closest("article.hook button[data-act]")
    if (hookButton) return hookAction(hookButton)
    const button = event.target.closest("button[data-act=revoke]")
    if (!button) return
    const row = button.closest("li")
    if (!confirm(t("keys.confirmRevoke", { name: row.querySelector("strong").textContent }))) return
    const result = await api(`/keys/${encodeURIComponent(row.dataset.id)}/revoke`, { method: "POST", body: {} })
    if (!result.ok) return say(problem(result), "error")
    return load()
  })
  return load()
}

// ---- Workspace settings and sessions ----
const settingsView = async () => {
  const load = async () => {
    const [workspace, sessions] = await Promise.all([api("/workspace"), api("/sessions")])
    if (!workspace.ok) return say(problem(workspace), "error")
    const ws = workspace.data.workspace
    const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [ws.timeZone]
    if (!zones.includes(ws.timeZone)) zones.unshift(ws.timeZone)
    if (!zones.includes("UTC")) zones.unshift("UTC")
    const option = (value, label, selected) =>
      html`<option value="${value}"${selected ? " selected" : ""}>${label}</option>`
    main.innerHTML = html`<h1>${t("settings.title")}</h1>
<form id="workspace" class="stack"><label>${t("settings.name")} <input name="name" required maxlength="100" value="${ws.name}"></label>
<label>${t("settings.language")} <select name="locale">${option("en", "English", ws.locale === "en")}${option("ja", "日本語", ws.locale === "ja")}</select></label>
<label>${t("settings.timeZone")} <select name="timeZone">${zones.map((z) => option(z, z, z === ws.timeZone))}</select></label>
<fieldset><legend>${t("settings.approvalMail")}</legend>${["each", "digest", "off"].map(
      (m) =>
        html`<label><input type="radio" name="approvalMail" value="${m}"${ws.approvalMail === m ? " checked" : ""}> ${t(`settings.mail${m[0].toUpperCase()}${m.slice(1)}`)}</label>`
    )}</fieldset>
<p><button>${t("settings.save")}</button></p></form>
<h2>${t("sessions.title")}</h2>
<ul class="rows" id="sessions">${(sessions.data?.sessions ?? []).map(
      (
        s
      ) => html`<li class="row" data-id="${s.id}"><div>${s.current ? html`<strong>${t("sessions.current")}</strong> · ` : ""}<span class="muted">${t("sessions.started", { when: when(s.createdAt) })}</span></div>
${s.current ? "" : html`<div><button class="secondary" data-act="end-session">${t("sessions.revoke")}</button></div>`}</li>`
    )}</ul>`.text
  }
  main.addEventListener("submit", async (event) => {
    event.preventDefault()
    const form = new FormData(event.target)
    const result = await api("/workspace", {
      method: "PATCH",
      body: {
        name: form.get("name"),
        locale: form.get("locale"),
        timeZone: form.get("timeZone"),
        approvalMail: form.get("approvalMail")
      }
    })
    if (!result.ok) return say(problem(result), "error")
    // A new language or time zone is the page's own: draw it again from the server.
    if (result.data.workspace.locale !== lang || result.data.workspace.timeZone !== timeZone) return location.reload()
    say(t("settings.saved"))
  })
  main.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-act=end-session]")
    if (!button) return
    const result = await api(`/sessions/${encodeURIComponent(button.closest("li").dataset.id)}/revoke`, {
      method: "POST",
      body: {}
    })
    if (!result.ok) return say(problem(result), "error")
    return load()
  })
  return load()
}

// ---- Calendar: scheduled and queued posts by day in the workspace's zone; moving one reschedules it ----
const addDays = (day, n) => {
  const [y, m, d] = day.split("-").map(Number)
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10)
}
/** Monday of the week holding `day` (weeks start on Monday, as ISO 8601). */
const mondayOf = (day) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7))
const dayLabel = (day, long) =>
  new Intl.DateTimeFormat(lang, {
    timeZone: "UTC",
    weekday: long ? "long" : "short",
    month: "short",
    day: "numeric"
  }).format(new Date(`${day}T12:00:00Z`))
const monthLabel = (day) =>
  new Intl.DateTimeFormat(lang, { timeZone: "UTC", year: "numeric", month: "long" }).format(
    new Date(`${day}T12:00:00Z`)
  )
const clock = (iso) => toZoned(iso).slice(11, 16)

/** Every page of a listing (bounded: a calendar shows weeks, not years of posts). */
const allPosts = async (status) => {
  const found = []
  let cursor = null
  for (let page = 0; page < 10; page++) {
    const result = await api(
      `/posts?status=${status}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
    )
    if (!result.ok) return { ok: false, result }
    found.push(...result.data.posts)
    cursor = result.data.nextCursor
    if (!cursor) break
  }
  return { ok: true, posts: found }
}

const calendarView = async () => {
  const params = new URLSearchParams(location.search)
  const today = toZoned(new Date().toISOString()).slice(0, 10)
  const cal = {
    mode: params.get("view") === "month" ? "month" : "week",
    day: /^\d{4}-\d{2}-\d{2}$/.test(params.get("day") ?? "") ? params.get("day") : today,
    posts: [],
    queued: new Map(),
    free: [],
    notes: {}
  }
  const accounts = new Map(((await api("/accounts")).data?.accounts ?? []).map((a) => [a.id, a]))
  const range = () => {
    if (cal.mode === "week") {
      const start = mondayOf(cal.day)
      return { start, days: 7 }
    }
    const first = `${cal.day.slice(0, 8)}01`
    const start = mondayOf(first)
    const last = addDays(`${addDays(first, 31).slice(0, 8)}01`, -1)
    const end = addDays(mondayOf(last), 6)
    return { start, days: Math.round((Date.parse(end) - Date.parse(start)) / 86400000) + 1 }
  }
  const load = async () => {
    const [scheduled, waiting, schedules] = await Promise.all([
      allPosts("scheduled"),
      allPosts("needs_approval"),
      api("/schedules")
    ])
    if (!scheduled.ok) return say(refusal(scheduled.result), "error")
    // A queued post of an asks-first key keeps its slot while it waits: it belongs on the calendar too.
    cal.posts = [...scheduled.posts, ...(waiting.ok ? waiting.posts : []).filter((p) => p.scheduledFor !== null)]
    cal.queued = new Map()
    cal.free = []
    const list = schedules.data?.schedules ?? []
    const queues = await Promise.all(list.map((s) => api(`/schedules/${encodeURIComponent(s.id)}/queue?limit=100`)))
    list.forEach((s, i) => {
      const taken = new Set()
      for (const q of queues[i].data?.posts ?? []) {
        cal.queued.set(q.postId, s.name)
        taken.add(Date.parse(q.scheduledFor))
      }
      for (const slot of s.nextSlots) if (!taken.has(Date.parse(slot.at))) cal.free.push({ at: slot.at, name: s.name })
    })
    draw()
  }
  const item = (post) => {
    const note = cal.notes[post.id]
    const targets = post.targets.map((x) => {
      const a = accounts.get(x.accountId)
      return `${networkName(x.platform)}${a ? ` @${a.username}` : ""}`
    })
    return html`<li class="cal-post${post.status === "needs_approval" ? " waiting" : ""}" draggable="true" data-id="${post.id}" data-time="${clock(post.scheduledFor)}">
<p class="cal-line"><time datetime="${post.scheduledFor}">${clock(post.scheduledFor)}</time> <span class="cal-text">${snippet(post.content)}</span></p>
<p class="muted cal-targets"><span class="sr-only">${t("cal.targets")}: </span>${targets.join(", ")}</p>
<p class="cal-badges">${post.status === "needs_approval" ? badge("needs_approval") : ""}${cal.queued.has(post.id) ? html`<span class="badge queued">${t("cal.queued", { name: cal.queued.get(post.id) })}</span>` : ""}
<button type="button" class="secondary small" data-act="move-open" aria-expanded="false" aria-label="${t("cal.moveLabel", { post: snippet(post.content) })}">${t("cal.move")}</button></p>
${note ? html`<p class="error" role="alert">${note}</p>` : ""}
<form class="move" hidden><label>${t("cal.newTime", { tz: timeZone })} <input type="datetime-local" name="when" required value="${toZoned(post.scheduledFor)}"></label>
<p><button>${t("queue.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form></li>`
  }
  const draw = (focusId) => {
    const { start, days } = range()
    const byDay = new Map()
    for (const p of [...cal.posts].sort((a, b) => Date.parse(a.scheduledFor) - Date.parse(b.scheduledFor))) {
      const day = toZoned(p.scheduledFor).slice(0, 10)
      byDay.set(day, [...(byDay.get(day) ?? []), p])
    }
    const freeByDay = new Map()
    for (const f of cal.free) {
      const day = toZoned(f.at).slice(0, 10)
      freeByDay.set(day, [...(freeByDay.get(day) ?? []), f])
    }
    const month = cal.mode === "month"
    const title = month
      ? t("cal.month", { date: monthLabel(cal.day) })
      : t("cal.week", { date: dayLabel(start, false) })
    const cells = Array.from({ length: days }, (_, i) => addDays(start, i))
    main.innerHTML = html`<h1>${t("nav.calendar")}</h1>
<div class="cal-bar"><div role="group" aria-label="${title}"><button type="button" class="secondary" data-cal="prev">${t(month ? "cal.prevMonth" : "cal.prev")}</button> <button type="button" class="secondary" data-cal="today">${t("cal.today")}</button> <button type="button" class="secondary" data-cal="next">${t(month ? "cal.nextMonth" : "cal.next")}</button></div>
<h2 id="cal-title" tabindex="-1" aria-live="polite">${title}</h2>
<div role="group" aria-label="${t("nav.calendar")}"><button type="button" class="secondary" data-cal="week" aria-pressed="${String(!month)}">${t("cal.weekView")}</button> <button type="button" class="secondary" data-cal="month" aria-pressed="${String(month)}">${t("cal.monthView")}</button></div></div>
<p class="muted">${t("cal.zone", { tz: timeZone })} ${t("cal.help")}</p>
<ol class="cal ${month ? "month" : "week"}">${cells.map((day) => {
      const posts = byDay.get(day) ?? []
      const free = freeByDay.get(day) ?? []
      const outside = month && day.slice(0, 7) !== cal.day.slice(0, 7)
      return html`<li class="day${posts.length + free.length === 0 ? " blank" : ""}${day === today ? " today" : ""}${outside ? " outside" : ""}" data-date="${day}" aria-labelledby="d-${day}">
<h3 id="d-${day}">${dayLabel(day, !month)}${day === today ? html` <span class="badge">${t("cal.today")}</span>` : ""}</h3>
${posts.length > 0 ? html`<ul class="cal-posts">${posts.map(item)}</ul>` : ""}
${free.map((f) => html`<p class="free muted">${clock(f.at)} · ${t("cal.freeSlot", { name: f.name })}</p>`)}
${posts.length + free.length === 0 && !month ? html`<p class="muted none">${t("cal.none")}</p>` : ""}</li>`
    })}</ol>`.text
    const target = focusId
      ? main.querySelector(`li.cal-post[data-id="${CSS.escape(focusId)}"] [data-act=move-open]`)
      : null
    if (target) target.focus()
  }
  const go = (patch) => {
    Object.assign(cal, patch)
    const query = new URLSearchParams({ ...(cal.mode === "month" ? { view: "month" } : {}), day: cal.day })
    history.replaceState(null, "", `?${query}`)
    draw()
    main.querySelector("#cal-title")?.focus?.()
  }
  /** The same rules as the API: a local time in the workspace's zone, which the API refuses when past or skipped by DST. */
  const move = async (id, local) => {
    const result = await api(`/posts/${encodeURIComponent(id)}/reschedule`, {
      method: "POST",
      body: { scheduledFor: { local, timeZone } }
    })
    if (!result.ok) {
      // Said in the post itself (an alert), where the person looks after a drag or a Move.
      cal.notes[id] = refusal(result)
      return draw(id)
    }
    delete cal.notes[id]
    say(t("cal.moved", { when: when(result.data.post.scheduledFor) }))
    await load()
    draw(id)
  }
  main.addEventListener("click", (event) => {
    const button = event.target.closest("button")
    if (!button) return
    const nav = button.dataset.cal
    if (nav) {
      const step = cal.mode === "month" ? null : 7
      if (nav === "today") return go({ day: today })
      if (nav === "week" || nav === "month") return go({ mode: nav })
      const sign = nav === "next" ? 1 : -1
      if (step) return go({ day: addDays(cal.day, sign * step) })
      const first = `${cal.day.slice(0, 8)}01`
      return go({ day: sign > 0 ? `${addDays(first, 31).slice(0, 8)}01` : `${addDays(first, -1).slice(0, 8)}01` })
    }
    const li = button.closest("li.cal-post")
    if (!li) return
    const form = li.querySelector("form.move")
    const opener = li.querySelector("[data-act=move-open]")
    if (button.dataset.act === "move-open") {
      form.hidden = false
      opener.setAttribute("aria-expanded", "true")
      li.setAttribute("draggable", "false")
      form.elements.when.focus()
    } else if (button.dataset.act === "close") {
      form.hidden = true
      opener.setAttribute("aria-expanded", "false")
      li.setAttribute("draggable", "true")
      opener.focus()
    }
  })
  main.addEventListener("submit", (event) => {
    event.preventDefault()
    const li = event.target.closest("li.cal-post")
    if (li) move(li.dataset.id, event.target.elements.when.value)
  })
  main.addEventListener("keydown", (event) => {
    const li = event.target.closest?.("li.cal-post")
    if (event.key === "Escape" && li) li.querySelector("[data-act=close]")?.click()
  })
  // Dragging a post to another day keeps its time of day there.
  main.addEventListener("dragstart", (event) => {
    const li = event.target.closest?.("li.cal-post")
    if (!li) return
    event.dataTransfer.setData("text/plain", li.dataset.id)
    event.dataTransfer.effectAllowed = "move"
    li.classList.add("dragging")
  })
  main.addEventListener("dragend", (event) => event.target.closest?.("li.cal-post")?.classList.remove("dragging"))
  main.addEventListener("dragover", (event) => {
    const day = event.target.closest?.("li.day")
    if (!day) return
    event.preventDefault()
    for (const d of main.querySelectorAll("li.day.over")) if (d !== day) d.classList.remove("over")
    day.classList.add("over")
  })
  main.addEventListener("drop", (event) => {
    const day = event.target.closest?.("li.day")
    if (!day) return
    event.preventDefault()
    day.classList.remove("over")
    const id = event.dataTransfer.getData("text/plain")
    const li = main.querySelector(`li.cal-post[data-id="${CSS.escape(id)}"]`)
    if (!li || li.closest("li.day") === day) return
    move(id, `${day.dataset.date}T${li.dataset.time}`)
  })
  return load()
}

// On a phone the navigation folds behind one button (app.css hides it below 600 px until opened); made
// here, so a page whose script did not run keeps its navigation in sight.
const menuButton = document.createElement("button")
const navigation = document.querySelector("header nav")
navigation.id = "app-nav"
Object.assign(menuButton, { type: "button", className: "menu-toggle secondary" })
menuButton.setAttribute("aria-expanded", "false")
menuButton.setAttribute("aria-controls", "app-nav")
menuButton.innerHTML =
  html`<svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false"><path d="M2 4h14M2 9h14M2 14h14" stroke="currentColor" stroke-width="2"/></svg>${t("nav.menu")}`.text
navigation.before(menuButton)
const openMenu = (open) => menuButton.setAttribute("aria-expanded", String(open))
menuButton.addEventListener("click", () => openMenu(menuButton.getAttribute("aria-expanded") !== "true"))
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || menuButton.getAttribute("aria-expanded") !== "true") return
  openMenu(false)
  menuButton.focus()
})

const views = {
  queue: queueView,
  calendar: calendarView,
  posts: postsView,
  accounts: accountsView,
  keys: keysView,
  settings: settingsView
}
views[document.body.dataset.view]?.()
