import { HttpServerResponse } from "effect/http"

export const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** A small self-contained page: no external assets (the service may run offline). */
export const page = (title: string, body: string, status = 200, lang = "en") =>
  HttpServerResponse.text(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} · Herald</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
button{font:inherit;padding:.4rem .9rem;border-radius:6px;border:1px solid #888;background:#111;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#111}.post{border:1px solid #ddd;border-radius:8px;padding:.8rem;margin:.8rem 0}
code{background:#f2f2f2;padding:.1rem .3rem;border-radius:4px}.muted{color:#666;font-size:.9rem}</style></head>
<body><h1>${escape(title)}</h1>${body}</body></html>`, { status, contentType: "text/html; charset=utf-8" })
