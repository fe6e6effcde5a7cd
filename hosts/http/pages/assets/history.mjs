// History: published, failed, scheduled, rejected and cancelled posts, filtered by status, account and time
// (in the workspace's zone), each published target with its figures and a chart of its readings.
import { changedPost, editForm } from "./editParts.mjs"
import { figureViews } from "./figures.mjs"

const statuses = ["published", "failed", "scheduled", "rejected", "cancelled"]
const periods = ["7", "30", "90"]
const DAY_MS = 86_400_000
const isDay = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s ?? "")

/** @param {Record<string, any>} app the app's helpers (core.mjs), so this view draws and calls the API as the others do */
export const historyView = async (app) => {
  const { main, api, html, t, say, problem, refusal, when, badge, networkName, mediaStrip, snippet, timeZone, lang } =
    app
  const figures = figureViews({ html, t, lang, when, timeZone })
  /** The instant a local midnight of `day` (YYYY-MM-DD) is in the workspace's zone (DST-safe: the offset is read twice). */
  const midnight = (day) => {
    const local = Date.parse(`${day}T00:00:00Z`)
    return local - app.zoneOffset(local - app.zoneOffset(local))
  }
  const today = app.toZoned(new Date().toISOString()).slice(0, 10)
  const addDays = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

  const accounts = new Map(((await api("/accounts")).data?.accounts ?? []).map((a) => [a.id, a]))
  const params = new URLSearchParams(location.search)
  const filters = {
    status: params.get("status") ?? "",
    account: params.get("account") ?? "",
    period: [...periods, "range"].includes(params.get("period")) ? params.get("period") : "",
    from: isDay(params.get("from")) ? params.get("from") : "",
    to: isDay(params.get("to")) ? params.get("to") : ""
  }
  const state = { posts: [], cursor: null, metrics: new Map(), summary: null }

  /** The chosen time window as instants [from, to), or null for any time. */
  const windowOf = () => {
    if (periods.includes(filters.period))
      return { from: midnight(addDays(today, 1 - Number(filters.period))), to: midnight(addDays(today, 1)) }
    if (filters.period === "range" && (filters.from || filters.to))
      return {
        from: filters.from ? midnight(filters.from) : 0,
        to: filters.to ? midnight(addDays(filters.to, 1)) : Number.MAX_SAFE_INTEGER
      }
    return null
  }
  const timeOf = (p) => Date.parse(p.gone ? p.gone.at : (p.publishedAt ?? p.scheduledFor ?? p.createdAt))
  const shown = () => {
    const span = windowOf()
    return state.posts.filter(
      (p) =>
        (filters.account === "" || p.targets.some((x) => x.accountId === filters.account)) &&
        (span === null || (timeOf(p) >= span.from && timeOf(p) < span.to))
    )
  }

  const targetRow = (target, postId) => {
    const account = accounts.get(target.accountId)
    const name = networkName(target.platform)
    const read = state.metrics.get(postId)?.targets.find((m) => m.accountId === target.accountId)
    return html`<li><strong>${name}</strong> ${account ? html`<span class="muted">@${account.username}</span>` : ""} ${badge(target.status)}
${target.url ? html` <a href="${target.url}" rel="noopener noreferrer" target="_blank">${t("posts.open", { network: name })}</a>` : ""}
${target.error ? html`<p class="error">${target.error.message} <code>${target.error.code}</code></p>` : ""}
${target.firstComment ? html`<p class="muted">${t("post.firstComment")}: ${badge(target.firstComment.status)}${target.firstComment.error ? html` <span class="error">${target.firstComment.error.message}</span>` : ""}</p>` : ""}
${target.status === "published" && read ? figures.targetFigures(read) : ""}
</li>`
  }

  const postRow = (post) => {
    const commentFailed = post.targets.some((x) => x.firstComment?.status === "failed")
    const gone = post.gone
    // A finished post with failed targets: all of them (failed) or beside published ones (published).
    const retryable =
      !gone &&
      (post.status === "failed" || post.status === "published") &&
      post.targets.some((x) => x.status === "failed")
    const readable = !gone && post.targets.some((x) => x.status === "published")
    const editable = !gone && post.status === "scheduled"
    return html`<article class="post${gone ? " gone" : ""}" data-id="${post.id}" aria-labelledby="p-${post.id}">
<h2 id="p-${post.id}" class="post-title">${snippet(post.content) || post.id}</h2>
<p class="muted">${badge(gone ? gone.kind : post.status)} · ${post.createdBy.name} · ${gone ? t(gone.kind === "rejected" ? "history.rejectedBy" : "history.cancelledAt", { when: when(gone.at) }) : when(post.publishedAt ?? post.scheduledFor ?? post.createdAt)}</p>
${gone ? html`<p class="reason">${gone.reason ? t("history.reason", { reason: gone.reason }) : t("history.noReason")}</p>` : ""}
${mediaStrip(post)}
<ul class="targets">${post.targets.map((x) => (gone ? html`<li><strong>${networkName(x.platform)}</strong> ${accounts.get(x.accountId) ? html`<span class="muted">@${accounts.get(x.accountId).username}</span>` : ""}</li>` : targetRow(x, post.id)))}</ul>
${
  !gone && (retryable || commentFailed || readable || editable)
    ? html`<p class="actions">${editable ? html`<button class="secondary" data-act="edit-open" aria-expanded="false">${t("edit.open")}</button> ` : ""}${retryable ? html`<button data-act="retry">${t("posts.retry")}</button> ` : ""}${commentFailed ? html`<button class="secondary" data-act="retry-comment">${t("posts.retryComment")}</button> ` : ""}${readable ? html`<button class="secondary" data-act="read-figures">${t("figures.refresh")}</button>` : ""}</p>`
    : ""
}
${editable ? editForm(post, { html, t }) : ""}
</article>`
  }

  const option = (value, label, selected) =>
    html`<option value="${value}"${selected ? " selected" : ""}>${label}</option>`
  const filterForm = () =>
    html`<form id="history-filters" class="inline filters" role="search"><label>${t("history.status")} <select name="status">${option("", t("history.any"), filters.status === "")}${statuses.map((s) => option(s, t(`status.${s}`), filters.status === s))}</select></label>
<label>${t("history.account")} <select name="account">${option("", t("history.anyAccount"), filters.account === "")}${[...accounts.values()].map((a) => option(a.id, `${networkName(a.platform)} @${a.username}`, filters.account === a.id))}</select></label>
<label>${t("history.period")} <select name="period">${option("", t("history.anyTime"), filters.period === "")}${periods.map((d) => option(d, t("history.lastDays", { n: d }), filters.period === d))}${option("range", t("history.range"), filters.period === "range")}</select></label>
<span class="range"${filters.period === "range" ? "" : " hidden"}><label>${t("history.from")} <input type="date" name="from" value="${filters.from}"></label> <label>${t("history.to")} <input type="date" name="to" value="${filters.to}"></label></span>
<button class="secondary">${t("history.filter")}</button></form>
<p class="muted">${t("history.zone", { tz: timeZone })}</p>`

  const draw = () => {
    main.removeAttribute("aria-busy")
    const posts = shown()
    const anyFilter = filters.status !== "" || filters.account !== "" || windowOf() !== null
    main.innerHTML = html`<h1>${t("posts.title")}</h1>
${filterForm()}
${state.summary}
${posts.length === 0 ? html`<div class="empty"><p>${state.posts.length === 0 && !anyFilter ? t("posts.empty") : t("history.none")}</p></div>` : posts.map(postRow)}
${state.cursor ? html`<p><button class="secondary" data-act="more">${t("posts.more")}</button></p>` : ""}
${filters.status === "" || filters.status === "rejected" || filters.status === "cancelled" ? html`<p class="muted">${t("history.kept")}</p>` : ""}`.text
  }

  /**
   * Rejected and cancelled posts, from their events (a rejected post leaves GET /posts; its event keeps the
   * post as it was and the person's reason), newest first. Bounded: the events are kept for a while only.
   */
  const gonePosts = async () => {
    const found = []
    let after = ""
    for (let page = 0; page < 20; page++) {
      const result = await api(
        `/events?types=post.rejected,post.cancelled&limit=100${after ? `&after=${encodeURIComponent(after)}` : ""}`
      )
      if (!result.ok) break
      for (const e of result.data.events)
        found.push({
          ...e.data.post,
          gone: {
            kind: e.type === "post.rejected" ? "rejected" : "cancelled",
            at: e.timestamp,
            reason: e.data.reason ?? null
          }
        })
      if (result.data.events.length < 100) break
      after = result.data.nextCursor
    }
    return found.reverse()
  }

  /** Each shown post's figures (GET /posts/{id}/metrics), four at a time, once per page load. */
  const loadFigures = async () => {
    const wanted = shown()
      .filter((p) => !p.gone && p.targets.some((x) => x.status === "published") && !state.metrics.has(p.id))
      .map((p) => p.id)
    const next = async () => {
      for (let id = wanted.shift(); id !== undefined; id = wanted.shift()) {
        const result = await api(`/posts/${encodeURIComponent(id)}/metrics`)
        if (result.ok) state.metrics.set(id, result.data)
      }
    }
    await Promise.all([next(), next(), next(), next()])
  }

  /** The period's sums (GET /metrics, at most 92 days; the last 30 when no time is chosen). */
  const loadSummary = async () => {
    const span = windowOf()
    const query = new URLSearchParams()
    if (span) {
      const end = Math.min(span.to, Date.now())
      if (span.from >= end) return
      query.set("to", new Date(end).toISOString())
      query.set("from", new Date(Math.max(span.from, end - 92 * DAY_MS)).toISOString())
    }
    if (filters.account) query.set("accountId", filters.account)
    // Days of publishing in the workspace's zone, as the time filter counts them.
    query.set("timeZone", timeZone)
    const result = await api(`/metrics?${query}`)
    if (!result.ok) {
      state.summary = html`<p class="notice">${refusal(result)}</p>`
      return
    }
    const days = []
    const last = app.toZoned(result.data.to).slice(0, 10)
    for (let d = app.toZoned(result.data.from).slice(0, 10); d <= last; d = addDays(d, 1)) days.push(d)
    state.summary = figures.summary(result.data, days)
  }

  const load = async (more) => {
    // Busy until drawn: a reader (and a test) knows the list is being replaced.
    main.setAttribute("aria-busy", "true")
    const { status } = filters
    const span = windowOf()
    if (!more) state.summary = null
    const summary = !more && (status === "" || status === "published") ? loadSummary() : null
    if (status === "rejected" || status === "cancelled") {
      state.posts = (await gonePosts()).filter((p) => p.gone.kind === status)
      state.cursor = null
      await summary
      return draw()
    }
    const page = async (cursor) =>
      api(
        `/posts?limit=50${status ? `&status=${encodeURIComponent(status)}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
      )
    const [first, gone] = await Promise.all([
      page(more ? state.cursor : null),
      status === "" && !more ? gonePosts() : Promise.resolve([])
    ])
    if (!first.ok) {
      main.removeAttribute("aria-busy")
      return say(problem(first), "error")
    }
    const found = [...first.data.posts]
    state.cursor = first.data.nextCursor
    // With a time window, pages are read on until they reach before it (bounded: ten pages at a time).
    for (let n = 0; span && state.cursor && n < 9; n++) {
      const oldest = found[found.length - 1]
      if (oldest && Date.parse(oldest.createdAt) < span.from) break
      const next = await page(state.cursor)
      if (!next.ok) break
      found.push(...next.data.posts)
      state.cursor = next.data.nextCursor
    }
    if (more) state.posts = [...state.posts, ...found]
    else {
      // Rejected and cancelled posts take their place by when they were asked for, among these posts.
      const oldest = found.length > 0 && state.cursor ? found[found.length - 1].createdAt : ""
      const merged = [...found, ...gone.filter((p) => p.createdAt >= oldest)]
      state.posts = merged.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    }
    await Promise.all([loadFigures(), summary])
    draw()
  }

  main.addEventListener("change", (event) => {
    if (event.target.name !== "period") return
    main.querySelector("#history-filters .range").hidden = event.target.value !== "range"
  })
  /** A scheduled post's edit, through the same PATCH /posts/{id} as the queue's; a refusal stays in its card. */
  const saveEdit = async (article, form) => {
    const post = state.posts.find((p) => p.id === article.dataset.id)
    const body = post ? changedPost(post, new FormData(form)) : {}
    if (Object.keys(body).length === 0) return toggleEdit(article, false)
    const result = await api(`/posts/${encodeURIComponent(post.id)}`, { method: "PATCH", body })
    if (!result.ok) {
      form.querySelector(".edit-error").innerHTML = html`<p class="error" role="alert">${refusal(result)}</p>`.text
      return form.elements.content.focus()
    }
    state.posts = state.posts.map((p) => (p.id === post.id ? result.data.post : p))
    draw()
    say(t("history.edited"))
    main.querySelector(`article[data-id="${CSS.escape(post.id)}"] [data-act=edit-open]`)?.focus()
  }
  const toggleEdit = (article, open) => {
    article.querySelector("form.edit").hidden = !open
    const opener = article.querySelector("[data-act=edit-open]")
    opener.setAttribute("aria-expanded", String(open))
    if (open) article.querySelector("form.edit textarea").focus()
    else opener.focus()
  }

  main.addEventListener("submit", (event) => {
    if (event.target.classList.contains("edit")) {
      event.preventDefault()
      return saveEdit(event.target.closest("article"), event.target)
    }
    if (event.target.id !== "history-filters") return
    event.preventDefault()
    const form = new FormData(event.target)
    for (const name of Object.keys(filters)) filters[name] = String(form.get(name) ?? "")
    if (filters.period !== "range") Object.assign(filters, { from: "", to: "" })
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== "")).toString()
    history.replaceState(null, "", query ? `?${query}` : location.pathname)
    return load(false)
  })
  main.addEventListener("click", async (event) => {
    const button = event.target.closest("button")
    if (button?.dataset.act === "edit-open" || button?.dataset.act === "edit-close")
      return toggleEdit(button.closest("article"), button.dataset.act === "edit-open")
    if (!button || button.closest("form")) return
    if (button.dataset.act === "more") return load(true)
    const id = button.closest("article")?.dataset.id
    if (!id) return
    if (button.dataset.act === "read-figures") {
      const result = await api(`/posts/${encodeURIComponent(id)}/metrics/refresh`, { method: "POST", body: {} })
      if (!result.ok) return say(problem(result), "error")
      return say(
        result.data.notBefore
          ? t("figures.askedLater", { when: when(result.data.notBefore) })
          : t("figures.asked", { n: result.data.queued })
      )
    }
    const path =
      button.dataset.act === "retry"
        ? `/posts/${encodeURIComponent(id)}/retry`
        : `/posts/${encodeURIComponent(id)}/first-comment/retry`
    const result = await api(path, { method: "POST", body: {} })
    if (!result.ok) return say(problem(result), "error")
    say(t("posts.retried"))
    state.metrics.delete(id)
    return load(false)
  })
  return load(false)
}
