// Calendar: scheduled and queued posts by day in the workspace's zone (a week or a month), the schedules'
// free slots, and moving a post (a form or a drag to another day) reschedules it.
import {
  api,
  badge,
  html,
  lang,
  main,
  networkName,
  refusal,
  say,
  snippet,
  t,
  timeZone,
  toZoned,
  when
} from "./core.mjs"

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

export const calendarView = async () => {
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
