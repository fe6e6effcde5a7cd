import { createHash } from "node:crypto"
import { HttpServerResponse } from "effect/http"

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** Herald's mark: an "H" on a blue tile (also the favicon, served by the app as /favicon.svg). */
export const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="24" height="24" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="7" fill="#0b57d0"/><path d="M10 8v16M22 8v16M10 16h12" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/></svg>'

/** Every page's tab icon: the mark, from the app's own origin (img-src 'self'). */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:760px;margin:1rem auto 2rem;padding:0 1rem;color:#1d1d1f}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.1rem;padding:.4rem 0 .8rem;border-bottom:1px solid #ddd}
.brand svg{display:block}h1{font-size:1.6rem}label{display:inline-block;margin:.3rem 0}
input,select{font:inherit;padding:.35rem .5rem;border:1px solid #767676;border-radius:4px;max-width:100%}
button{font:inherit;padding:.4rem .9rem;border-radius:6px;border:1px solid #888;background:#111;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#111}.post{border:1px solid #ddd;border-radius:8px;padding:.8rem;margin:.8rem 0}
code{background:#f2f2f2;padding:.1rem .3rem;border-radius:4px}.muted{color:#666;font-size:.9rem}`

const sources = new Map<string, string>()
/** A CSP source naming one inline block by its hash; pages reuse a few constant blocks, so each is hashed once. */
export const hashSource = (block: string) => {
  let source = sources.get(block)
  if (source === undefined)
    sources.set(block, (source = `'sha256-${createHash("sha256").update(block).digest("base64")}'`))
  return source
}

/**
 * A page's Content-Security-Policy: its own style and scripts only (by hash: nothing injected into
 * the page could run), requests and forms to this origin, never inside a frame.
 */
export const pagePolicy = (scripts: ReadonlyArray<string>) =>
  [
    "default-src 'none'",
    `style-src ${hashSource(STYLE)}`,
    ...(scripts.length > 0 ? [`script-src ${scripts.map(hashSource).join(" ")}`] : []),
    "connect-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/** A small self-contained page: no external assets (the service may run offline). `script` is its one inline script, if any. */
export const page = (
  title: string,
  body: string,
  status = 200,
  lang = "en",
  options: { readonly script?: string; readonly head?: string } = {}
) =>
  HttpServerResponse.text(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Herald</title>${FAVICON_LINK}${options.head ?? ""}
<style>${STYLE}</style></head>
<body><header class="brand">${MARK_SVG}<span>Herald</span></header><main><h1>${escapeHtml(title)}</h1>${body}</main>${options.script === undefined ? "" : `<script>${options.script}</script>`}</body></html>`,
    {
      status,
      contentType: "text/html; charset=utf-8",
      headers: { "content-security-policy": pagePolicy(options.script === undefined ? [] : [options.script]) }
    }
  )
