// Accounts: the workspace's connected network accounts (the broken ones first, to reconnect), disconnecting
// one, and connecting another network.
import { api, html, main, networkName, problem, say, t, when } from "./core.mjs"

export const accountsView = async () => {
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
