// Keys and webhooks: the agents' API keys and OAuth connections (made, revoked), and the webhook endpoints
// with their event types, their latest deliveries and the receiver's answers.
import { ago, api, html, main, problem, say, t, when } from "./core.mjs"

// The event types a webhook can choose, served with the page from the domain's list (never copied here).
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

export const keysView = async () => {
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
