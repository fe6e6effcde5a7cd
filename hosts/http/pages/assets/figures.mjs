// What a published post did, drawn for History: a target's latest figures, a small chart of its readings
// over time, and the period's sums by day. Charts are inline SVG with presentation attributes only (the
// CSP allows no inline style); each has its figures in words beside it, so the picture is never the only way.

/** The figures History shows, in this order (the API's common set; watch time is shown in minutes). */
export const shownFigures = ["views", "likes", "replies", "reposts", "saves", "clicks", "watchTimeSeconds"]

/** The figure a chart follows: views when the network gives them, else the first one it gives. */
export const leadFigure = (figureSets) =>
  shownFigures.find((name) => figureSets.some((f) => f?.[name]?.value !== null && f?.[name]?.value !== undefined)) ??
  null

const W = 240
const H = 56
const PAD = 4
const STROKE = "#0b57d0"

/**
 * @param {{ html: Function, t: Function, lang: string, when: Function, timeZone: string }} ui the app's own helpers
 */
export const figureViews = ({ html, t, lang, when, timeZone }) => {
  const number = new Intl.NumberFormat(lang)
  const dayFormat = new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric", timeZone })
  const day = (iso) => dayFormat.format(new Date(iso))
  // The API groups by the workspace's days (YYYY-MM-DD, asked with timeZone): said as that calendar day.
  const calendarDayFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", timeZone: "UTC" })
  const calendarDay = (d) => calendarDayFormat.format(new Date(`${d}T12:00:00Z`))
  const value = (name, v) =>
    name === "watchTimeSeconds" ? t("figures.minutes", { n: number.format(Math.round(v / 60)) }) : number.format(v)

  /** The latest figures the network gave, as a term list; the ones it never gives are left out. */
  const figureList = (figures) =>
    html`<dl class="figures">${shownFigures
      .filter((name) => figures[name].value !== null)
      .map(
        (name) => html`<div><dt>${t(`figures.${name}`)}</dt><dd>${value(name, figures[name].value)}</dd></div>`
      )}</dl>`

  /** A line through a target's readings of one figure (x by read time), with its first and last values in words. */
  const readingsChart = (readings, name) => {
    const points = readings
      .filter((r) => r.figures[name].value !== null)
      .map((r) => ({ at: Date.parse(r.readAt), v: r.figures[name].value }))
    if (points.length === 0) return ""
    const first = points[0]
    const last = points[points.length - 1]
    const span = Math.max(1, last.at - first.at)
    const top = Math.max(1, ...points.map((p) => p.v))
    const x = (p) => (points.length === 1 ? W / 2 : PAD + ((p.at - first.at) / span) * (W - 2 * PAD))
    const y = (p) => H - PAD - (p.v / top) * (H - 2 * PAD)
    const line = points.map((p) => `${x(p).toFixed(1)},${y(p).toFixed(1)}`).join(" ")
    const caption =
      points.length === 1
        ? t("figures.oneReading", {
            figure: t(`figures.${name}`),
            value: value(name, last.v),
            when: when(readAt(last))
          })
        : t("figures.trend", {
            figure: t(`figures.${name}`),
            first: value(name, first.v),
            last: value(name, last.v),
            n: points.length,
            from: when(readAt(first)),
            to: when(readAt(last))
          })
    return html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" aria-hidden="true" focusable="false">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#767676" stroke-width="1"/>
<polyline points="${line}" fill="none" stroke="${STROKE}" stroke-width="2" stroke-linejoin="round"/>
${points.map((p) => html`<circle cx="${x(p).toFixed(1)}" cy="${y(p).toFixed(1)}" r="3" fill="${STROKE}"/>`)}</svg>
<figcaption class="muted">${caption}</figcaption></figure>`
  }
  const readAt = (p) => new Date(p.at).toISOString()

  /** One published target's figures: the latest, the chart of its readings, or why there are none yet. */
  const targetFigures = (target) => {
    if (target.state === "unavailable")
      return html`<p class="muted figures-none">${t("figures.unavailable", { reason: target.reason ?? "" })}</p>`
    if (target.readings.length === 0) return html`<p class="muted figures-none">${t("figures.pending")}</p>`
    const latest = target.readings[target.readings.length - 1]
    const lead = leadFigure([latest.figures])
    // The figures the network does not give are named with its reason: never shown as a zero.
    const missing = shownFigures.filter((name) => latest.figures[name].value === null)
    return html`<div class="target-figures"><p class="muted">${t("figures.readAt", { when: when(latest.readAt) })}</p>
${figureList(latest.figures)}${lead ? readingsChart(target.readings, lead) : ""}
${missing.length === 0 ? "" : html`<p class="muted not-given">${t("figures.notGiven", { list: missing.map((name) => `${t(`figures.${name}`)} (${latest.figures[name].reason ?? ""})`).join(", ") })}</p>`}</div>`
  }

  /** The period's sums (GET /metrics): totals, then one bar per day of publishing for the lead figure. */
  const summary = (answer, days) => {
    const rows = answer.days
    if (rows.length === 0) return html`<p class="muted">${t("figures.noneInPeriod")}</p>`
    const lead = leadFigure(rows.map((r) => r.figures))
    const totals = Object.fromEntries(
      shownFigures.map((name) => {
        const given = rows.map((r) => r.figures[name].value).filter((v) => v !== null)
        return [name, { value: given.length === 0 ? null : given.reduce((a, b) => a + b, 0) }]
      })
    )
    const posts = rows.reduce((n, r) => n + r.posts, 0)
    const byDay = new Map()
    for (const r of rows) byDay.set(r.day, (byDay.get(r.day) ?? 0) + (r.figures[lead]?.value ?? 0))
    const top = Math.max(1, ...byDay.values())
    const slot = (W * 2) / days.length
    const bar = (d, i) => {
      const v = byDay.get(d) ?? 0
      const h = (v / top) * (H - 2 * PAD)
      return html`<rect x="${(i * slot + slot * 0.15).toFixed(1)}" y="${(H - PAD - h).toFixed(1)}" width="${Math.max(1, slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}" fill="${STROKE}"/>`
    }
    const best = [...byDay.entries()].sort((a, b) => b[1] - a[1])[0]
    return html`<section class="period" aria-labelledby="period-title"><h2 id="period-title">${t("figures.period", { from: day(answer.from), to: day(answer.to) })}</h2>
<p class="muted">${t("figures.periodPosts", { n: posts })}</p>${figureList(totals)}
${
  lead
    ? html`<figure class="chart wide"><svg viewBox="0 0 ${W * 2} ${H}" width="100%" height="${H}" preserveAspectRatio="none" aria-hidden="true" focusable="false">
<line x1="0" y1="${H - PAD}" x2="${W * 2}" y2="${H - PAD}" stroke="#767676" stroke-width="1"/>${days.map(bar)}</svg>
<figcaption class="muted">${t("figures.byDay", { figure: t(`figures.${lead}`), best: best ? calendarDay(best[0]) : "", value: best ? value(lead, best[1]) : "" })}</figcaption></figure>`
    : ""
}</section>`
  }

  return { targetFigures, summary }
}
