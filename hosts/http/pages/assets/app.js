// Herald's app for people: plain ES module, no build step. Every view is drawn from /api/v1 with the
// session cookie and the CSRF token; everything a user or an agent wrote goes through `html`, which escapes.

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
const api = async (path, { method = "GET", body } = {}) => {
  const headers = { accept: "application/json", "x-csrf-token": csrf }
  if (method !== "GET") headers["content-type"] = "application/json"
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: "same-origin",
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
/** "2026-11-25T10:30" in the workspace's zone, as an ISO time in UTC. */
const fromZoned = (local) => {
  const [date, time] = local.split("T")
  const [y, mo, d] = date.split("-").map(Number)
  const [h, mi] = time.split(":").map(Number)
  const wall = Date.UTC(y, mo - 1, d, h, mi)
  let utc = wall - zoneOffset(wall)
  utc = wall - zoneOffset(utc)
  return new Date(utc).toISOString()
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

const mediaStrip = (post) =>
  post.mediaIds.length === 0
    ? ""
    : html`<ol class="media" aria-label="${t("post.media")}">${post.mediaIds.map(
        (id, i) =>
          html`<li><img src="/api/v1/media/${encodeURIComponent(id)}/preview" alt="${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}" width="112" height="112" loading="lazy"><span aria-hidden="true">${i + 1}</span></li>`
      )}</ol>`

const snippet = (text) => (text.length > 60 ? `${text.slice(0, 60)}…` : text)

const queueItem = (item) => {
  const { post } = item
  const note = queue.notes[post.id]
  const by = post.createdBy
  return html`<article class="post" tabindex="-1" data-id="${post.id}" data-version="${item.version}" aria-labelledby="h-${post.id}">
<div class="post-head"><input type="checkbox" class="pick" aria-label="${t("queue.select")}: ${snippet(post.content)}">
<div><h2 id="h-${post.id}">${t("queue.askedBy", { name: by.name })} <span class="badge">${by.kind === "key" ? t("queue.viaKey") : t("queue.viaPerson")}</span></h2>
<p class="muted">${post.scheduledFor === null ? t("queue.now") : t("queue.at", { when: when(post.scheduledFor) })}</p></div></div>
${note ? html`<p class="notice" role="alert">${note}</p>` : ""}
${mediaStrip(post)}
<div class="networks">${item.networks.map((n) => networkCard(post, n))}</div>
<div class="actions"><button data-act="approve">${t("queue.approve")}</button> <button class="secondary" data-act="reject-open" aria-expanded="false">${t("queue.reject")}</button> <button class="secondary" data-act="schedule-open" aria-expanded="false">${t("queue.schedule")}</button></div>
<form class="reject" hidden><label>${t("queue.reason")}<textarea name="reason" maxlength="1000" rows="2"></textarea></label>
<p><button>${t("queue.confirmReject")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<form class="schedule" hidden><label>${t("queue.newTime", { tz: timeZone })} <input type="datetime-local" name="when" required value="${toZoned(post.scheduledFor)}"></label>
<p><button>${t("queue.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
</article>`
}

const drawQueue = (focusId) => {
  const { items } = queue
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

const approve = async (article) => {
  const id = article.dataset.id
  const focusAfter = nextFocus(article)
  const result = await api(`/posts/${encodeURIComponent(id)}/approve`, {
    method: "POST",
    body: { version: article.dataset.version }
  })
  if (result.ok) {
    delete queue.notes[id]
    say(t("queue.approved"))
    return loadQueue(focusAfter)
  }
  if (result.data?.error?.code === "post_changed") {
    queue.notes[id] = t("queue.changed")
    return loadQueue(id)
  }
  say(problem(result), "error")
}

const reject = async (article, reason) => {
  const focusAfter = nextFocus(article)
  const result = await api(`/posts/${encodeURIComponent(article.dataset.id)}/reject`, {
    method: "POST",
    body: reason ? { reason } : {}
  })
  if (!result.ok) return say(problem(result), "error")
  say(t("queue.rejected"))
  return loadQueue(focusAfter)
}

const reschedule = async (article, local) => {
  const result = await api(`/posts/${encodeURIComponent(article.dataset.id)}/reschedule`, {
    method: "POST",
    body: { scheduledFor: fromZoned(local) }
  })
  if (!result.ok) return say(problem(result), "error")
  say(t("queue.rescheduled"))
  return loadQueue(article.dataset.id)
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
    else if (act === "close") closeForms(article)
  })
  main.addEventListener("submit", (event) => {
    event.preventDefault()
    const form = event.target
    const article = form.closest("article.post")
    if (form.classList.contains("reject")) reject(article, form.elements.reason.value.trim())
    else if (form.classList.contains("schedule")) reschedule(article, form.elements.when.value)
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
    } else if (event.key === "?") main.querySelector("#shortcuts")?.classList.toggle("highlight")
    else if (current && !event.target.closest("button")) {
      if (event.key === "x") {
        const box = current.querySelector(".pick")
        box.checked = !box.checked
        updateSelection()
      } else if (event.key === "a") approve(current)
      else if (event.key === "r") openForm(current, "reject")
      else if (event.key === "s") openForm(current, "schedule")
      else return
      event.preventDefault()
    }
  })
  return loadQueue()
}

// ---- Posts ----
const postsState = { posts: [], cursor: null }

const targetRow = (target, accounts) => {
  const account = accounts.get(target.accountId)
  const name = networkName(target.platform)
  return html`<li><strong>${name}</strong> ${account ? html`<span class="muted">@${account.username}</span>` : ""} ${badge(target.status)}
${target.url ? html` <a href="${target.url}" rel="noopener noreferrer" target="_blank">${t("posts.open", { network: name })}</a>` : ""}
${target.error ? html`<p class="error">${target.error.message} <code>${target.error.code}</code></p>` : ""}
${target.firstComment ? html`<p class="muted">${t("post.firstComment")}: ${badge(target.firstComment.status)}${target.firstComment.error ? html` <span class="error">${target.firstComment.error.message}</span>` : ""}</p>` : ""}
</li>`
}

const postRow = (post, accounts) => {
  const commentFailed = post.targets.some((x) => x.firstComment?.status === "failed")
  // A finished post with failed targets: all of them (failed) or beside published ones (published).
  const retryable =
    (post.status === "failed" || post.status === "published") && post.targets.some((x) => x.status === "failed")
  return html`<article class="post" data-id="${post.id}" aria-labelledby="p-${post.id}">
<h2 id="p-${post.id}" class="post-title">${snippet(post.content) || post.id}</h2>
<p class="muted">${badge(post.status)} · ${post.createdBy.name} · ${when(post.publishedAt ?? post.scheduledFor ?? post.createdAt)}</p>
${mediaStrip(post)}
<ul class="targets">${post.targets.map((x) => targetRow(x, accounts))}</ul>
${
  retryable || commentFailed
    ? html`<p class="actions">${retryable ? html`<button data-act="retry">${t("posts.retry")}</button> ` : ""}${commentFailed ? html`<button class="secondary" data-act="retry-comment">${t("posts.retryComment")}</button>` : ""}</p>`
    : ""
}
</article>`
}

const postsView = async () => {
  const accounts = new Map(((await api("/accounts")).data?.accounts ?? []).map((a) => [a.id, a]))
  const draw = () => {
    main.innerHTML =
      html`<h1>${t("posts.title")}</h1>${postsState.posts.length === 0 ? html`<p>${t("posts.empty")}</p>` : postsState.posts.map((p) => postRow(p, accounts))}
${postsState.cursor ? html`<p><button class="secondary" data-act="more">${t("posts.more")}</button></p>` : ""}`.text
  }
  const load = async (more) => {
    const result = await api(
      `/posts?limit=50${more && postsState.cursor ? `&cursor=${encodeURIComponent(postsState.cursor)}` : ""}`
    )
    if (!result.ok) return say(problem(result), "error")
    postsState.posts = more ? [...postsState.posts, ...result.data.posts] : result.data.posts
    postsState.cursor = result.data.nextCursor
    draw()
  }
  main.addEventListener("click", async (event) => {
    const button = event.target.closest("button")
    if (!button) return
    if (button.dataset.act === "more") return load(true)
    const id = button.closest("article")?.dataset.id
    if (!id) return
    const path =
      button.dataset.act === "retry"
        ? `/posts/${encodeURIComponent(id)}/retry`
        : `/posts/${encodeURIComponent(id)}/first-comment/retry`
    const result = await api(path, { method: "POST", body: {} })
    if (!result.ok) return say(problem(result), "error")
    say(t("posts.retried"))
    return load(false)
  })
  return load(false)
}

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
<div id="webhooks">${
      (hooks.data?.webhooks ?? []).length === 0
        ? html`<p>${t("hooks.none")}</p>`
        : hooks.data.webhooks.map(
            (
              w,
              i
            ) => html`<div class="post"><p><code>${w.url}</code> ${w.enabled ? "" : html`<strong>off</strong> ${w.disabledReason ?? ""}`}</p>
<p class="muted">${w.eventTypes.length === 0 ? t("hooks.every") : w.eventTypes.join(", ")}</p>
<ul>${(deliveries[i].data?.deliveries ?? []).map((d) => html`<li>${d.eventType} · ${d.status} · ${d.responseCode ?? d.error ?? ""} · ${when(d.lastAttemptAt ?? d.createdAt)}</li>`)}</ul></div>`
          )
    }</div>
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
    } else if (event.target.id === "newhook") {
      const result = await api("/webhooks", { method: "POST", body: { url: form.get("url") } })
      if (!result.ok) return say(problem(result), "error")
      await load()
      main.querySelector("#hooksecret").innerHTML = html`${t("hooks.secret")} <code>${result.data.secret}</code>`.text
    }
  })
  main.addEventListener("click", async (event) => {
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

const views = { queue: queueView, posts: postsView, accounts: accountsView, keys: keysView, settings: settingsView }
views[document.body.dataset.view]?.()
