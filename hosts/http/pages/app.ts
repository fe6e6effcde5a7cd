import { HttpServerResponse } from "effect/http"
import type { Locale } from "../../../domain/workspace.ts"
import { escapeHtml, FAVICON_LINK, MARK_SVG } from "./html.ts"
import { strings } from "./assets.ts"
import { platformNames } from "../../../domain/platforms.ts"
import { eventTypes } from "../../../domain/events.ts"
import { networkOptionForms } from "./networkOptionForms.ts"

/** The networks' names for the app's labels, from their folders' declarations. */
const networkNames = JSON.stringify(platformNames).replace(/</g, "\\u003c")
/** The event types a webhook can choose, from the domain's list (never copied into the script). */
const eventTypeList = JSON.stringify(eventTypes).replace(/</g, "\\u003c")
/** Each view's own modules (app.js loads them on that view only), with what they import. */
const viewModules: Partial<Record<View, readonly string[]>> = {
  queue: ["queue.mjs", "queueCards.mjs", "editParts.mjs"],
  calendar: ["calendar.mjs"],
  posts: ["history.mjs", "figures.mjs", "editParts.mjs"],
  accounts: ["accounts.mjs"],
  keys: ["keys.mjs"],
  settings: ["settings.mjs"]
}
/** The modules a view's script imports, fetched beside app.js rather than one after another. */
const preloadsOf = (view: View) =>
  ["core.mjs", ...(viewModules[view] ?? [])]
    .map((name) => `<link rel="modulepreload" href="/app/assets/${name}">`)
    .join("")

/** The app's views: each its own address, one shell, drawn by app.js from the /api/v1 endpoints. */
export const views = ["queue", "compose", "calendar", "posts", "accounts", "keys", "settings"] as const
export type View = (typeof views)[number]
export const viewPath: Record<View, `/${string}`> = {
  queue: "/app",
  compose: "/app/compose",
  calendar: "/app/calendar",
  posts: "/app/posts",
  accounts: "/app/accounts",
  keys: "/app/keys",
  settings: "/app/settings"
}

/** The composer's own files (Preact components), on its view only, with each network's options form from the contract. */
const composeFiles = `<link rel="stylesheet" href="/app/assets/compose.css"><script type="module" src="/app/assets/compose.mjs"></script>
<script type="application/json" id="network-options">${JSON.stringify(networkOptionForms).replace(/</g, "\\u003c")}</script>`

/** The app's pages allow only their own script and style files, and requests to this origin. */
const policy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

export interface Shell {
  readonly view: View
  readonly email: string
  readonly csrf: string
  readonly locale: Locale
  readonly timeZone: string
  /** Whose browser-kept draft the composer reads: the workspace's and the person's ids. */
  readonly draftOwner: string
}

/**
 * One view of the app: the navigation and an empty main drawn by the script. Its words in the
 * page's language ride along as a JSON data block (never run, so the policy needs no inline script).
 */
export const appShell = (shell: Shell) => {
  const t = strings[shell.locale]
  const nav = views
    .map(
      (v) =>
        `<a href="${viewPath[v]}"${v === shell.view ? ' aria-current="page"' : ""}>${escapeHtml(t[`nav.${v}`] ?? v)}</a>`
    )
    .join("")
  // "<" is escaped inside the JSON so nothing in it can end the block.
  const data = JSON.stringify(t).replace(/</g, "\\u003c")
  return HttpServerResponse.text(
    `<!doctype html><html lang="${shell.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(t[`nav.${shell.view}`] ?? "")} · Herald</title>${preloadsOf(shell.view)}
<meta name="csrf-token" content="${escapeHtml(shell.csrf)}"><meta name="time-zone" content="${escapeHtml(shell.timeZone)}">
${FAVICON_LINK}<link rel="stylesheet" href="/app/assets/app.css"><script type="module" src="/app/assets/app.js"></script>${shell.view === "compose" ? `<meta name="draft-owner" content="${escapeHtml(shell.draftOwner)}">${composeFiles}` : ""}</head>
<body data-view="${shell.view}"><header><a class="brand" href="/app">${MARK_SVG}<span>Herald</span></a><nav aria-label="${escapeHtml(t["nav.main"] ?? "")}">${nav}</nav>
<form method="post" action="/signout" class="signout"><input type="hidden" name="lang" value="${shell.locale}"><span class="muted who">${escapeHtml(t.signedInAs ?? "")} ${escapeHtml(shell.email)}</span> <button class="secondary">${escapeHtml(t["nav.signout"] ?? "")}</button></form></header>
<main id="main" tabindex="-1"><p>${escapeHtml(t.loading ?? "")}</p></main>
<div id="status" role="status" aria-live="polite" class="toast"></div>
<script type="application/json" id="strings">${data}</script>
<script type="application/json" id="networks">${networkNames}</script>
<script type="application/json" id="event-types">${eventTypeList}</script></body></html>`,
    {
      contentType: "text/html; charset=utf-8",
      headers: { "content-security-policy": policy, "cache-control": "no-store" }
    }
  )
}
