import { createHash } from "node:crypto"
import { HttpServerResponse } from "effect/http"

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
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
<title>${escapeHtml(title)} · Herald</title>${options.head ?? ""}
<style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}${options.script === undefined ? "" : `<script>${options.script}</script>`}</body></html>`,
    {
      status,
      contentType: "text/html; charset=utf-8",
      headers: { "content-security-policy": pagePolicy(options.script === undefined ? [] : [options.script]) }
    }
  )
