// Settings: the workspace's name, language, time zone and approval mail, and the person's signed-in sessions.
import { api, html, lang, main, problem, say, t, timeZone, when } from "./core.mjs"

export const settingsView = async () => {
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
