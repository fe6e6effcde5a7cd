// The approval queue: the posts agents asked to publish, each approved, rejected, edited or rescheduled,
// one by one or several at once, with keyboard shortcuts and a few seconds to undo a decision.
import { api, html, main, problem, refusal, say, t, timeZone } from "./core.mjs"
import { changedPost } from "./editParts.mjs"
import { queueItem } from "./queueCards.mjs"

const queue = { items: [], notes: {} }

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
${items.map((item) => queueItem(item, queue.notes[item.post.id]))}`.text
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

export const queueView = () => {
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
