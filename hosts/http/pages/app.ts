import { escapeHtml, page } from "./html.ts"

/** The app's script: one constant text, so the page's CSP allows it by hash; the CSRF token comes from a meta tag. */
const SCRIPT = `
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const api = (path, init = {}) => fetch("/api/v1" + path, { ...init, credentials: "same-origin",
  headers: { "content-type": "application/json", "x-csrf-token": csrf, ...(init.headers || {}) } }).then(async r => ({ ok: r.ok, body: await r.json() }));
const esc = s => String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"})[c]);
async function load() {
  const { body } = await api("/posts?status=needs_approval&limit=100");
  document.getElementById("posts").innerHTML = body.posts.length === 0 ? "<p>Nothing is waiting.</p>" : body.posts.map(p =>
    '<div class="post" data-id="' + esc(p.id) + '"><p>' + esc(p.content) + '</p><p class="muted">by ' + esc(p.createdBy.name) +
    ' · to ' + p.targets.map(t => esc(t.platform)).join(", ") + (p.scheduledFor ? ' · at ' + esc(p.scheduledFor) : ' · now') +
    '</p><button data-act="approve">Approve</button> <button class="secondary" data-act="reject">Reject</button></div>').join("");
  const keys = await api("/keys");
  document.getElementById("keys").innerHTML = keys.body.keys.map(k => '<div>' + esc(k.name) + ' <code>' + esc(k.prefix) + '…</code>' +
    (k.requireApproval ? ' (asks first)' : '') + (k.revokedAt ? ' revoked' : '') + '</div>').join("");
  const hooks = await api("/webhooks");
  const rows = await Promise.all(hooks.body.webhooks.map(async w => {
    const d = await api("/webhooks/" + w.id + "/deliveries?limit=5");
    return '<div class="post"><p><code>' + esc(w.url) + '</code> ' + (w.enabled ? '' : '<strong>off</strong> ' + esc(w.disabledReason || '')) +
      '</p><p class="muted">' + (w.eventTypes.length === 0 ? 'every event' : w.eventTypes.map(esc).join(", ")) + '</p><ul>' +
      d.body.deliveries.map(x => '<li>' + esc(x.eventType) + ' · ' + esc(x.status) + ' · ' + esc(x.responseCode ?? (x.error || '')) +
        ' · ' + esc(x.lastAttemptAt || x.createdAt) + '</li>').join("") + '</ul></div>';
  }));
  document.getElementById("webhooks").innerHTML = rows.length === 0 ? "<p>No webhooks.</p>" : rows.join("");
}
document.getElementById("posts").addEventListener("click", async e => {
  const act = e.target.dataset.act; if (!act) return;
  const id = e.target.closest(".post").dataset.id;
  const r = await api("/posts/" + id + "/" + act, { method: "POST" });
  if (!r.ok) alert(r.body.error.message + " " + r.body.error.hint);
  load();
});
document.getElementById("newkey").addEventListener("submit", async e => {
  e.preventDefault(); const f = new FormData(e.target);
  const r = await api("/keys", { method: "POST", body: JSON.stringify({ name: f.get("name"), requireApproval: f.get("asks") === "on" }) });
  document.getElementById("secret").innerHTML = r.ok ? 'New key (shown once): <code>' + esc(r.body.apiKey) + '</code>' : esc(r.body.error.message);
  load();
});
document.getElementById("newhook").addEventListener("submit", async e => {
  e.preventDefault(); const f = new FormData(e.target);
  const r = await api("/webhooks", { method: "POST", body: JSON.stringify({ url: f.get("url") }) });
  document.getElementById("hooksecret").innerHTML = r.ok ? 'Signing secret (shown once): <code>' + esc(r.body.secret) + '</code>' : esc(r.body.error.message);
  load();
});
load();
`

/** The approval app: posts waiting for approval, with approve and reject; API keys; webhooks and their recent deliveries. Talks to /api/v1. */
export const appPage = (email: string, csrf: string) =>
  page(
    "Herald",
    `<p class="muted">Signed in as ${escapeHtml(email)} · <a href="/api/v1/docs">API docs</a></p>
<form method="post" action="/signout"><button class="secondary">Sign out</button></form>
<h2>Waiting for approval</h2><div id="posts">Loading…</div>
<h2>API keys</h2><div id="keys"></div>
<form id="newkey"><input name="name" placeholder="Key name" required> <label><input type="checkbox" name="asks"> asks first</label> <button>Create key</button></form>
<p id="secret"></p>
<h2>Webhooks</h2><div id="webhooks"></div>
<form id="newhook"><input name="url" type="url" aria-label="Endpoint URL" placeholder="https://example.org/herald" required> <button>Add webhook</button></form>
<p id="hooksecret"></p>`,
    200,
    "en",
    { script: SCRIPT, head: `<meta name="csrf-token" content="${escapeHtml(csrf)}">` }
  )
