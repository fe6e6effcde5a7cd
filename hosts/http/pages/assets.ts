import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { HttpServerResponse } from "effect/http"
import { MARK_SVG } from "./html.ts"

/** A file of the app served as it is on disk (no build step): read once, with a strong ETag. */
interface Asset {
  readonly body: string
  readonly contentType: string
  readonly etag: string
}

const read = (name: string, contentType: string): Asset => {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8")
  return { body, contentType, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` }
}

export const assets: ReadonlyMap<string, Asset> = new Map([
  ["history.mjs", read("history.mjs", "text/javascript; charset=utf-8")],
  ["figures.mjs", read("figures.mjs", "text/javascript; charset=utf-8")],
  ["editParts.mjs", read("editParts.mjs", "text/javascript; charset=utf-8")],
  ["app.js", read("app.js", "text/javascript; charset=utf-8")],
  ["app.css", read("app.css", "text/css; charset=utf-8")]
])

/** The tab icon: the mark (html.ts), served from this origin so the pages' img-src 'self' allows it. */
export const favicon: Asset = {
  body: MARK_SVG,
  contentType: "image/svg+xml",
  etag: `"${createHash("sha256").update(MARK_SVG).digest("base64url").slice(0, 22)}"`
}

/** The app's words in both languages: the pages' own headings and the script's (one file, strings.json). */
export const strings = JSON.parse(readFileSync(new URL("./assets/strings.json", import.meta.url), "utf8")) as Record<
  "en" | "ja",
  Record<string, string>
>

/** An asset's answer; a browser that has this version gets 304. Revalidated each time, so a new release is never stale. */
export const assetResponse = (asset: Asset, ifNoneMatch: string | undefined) =>
  ifNoneMatch === asset.etag
    ? HttpServerResponse.empty({ status: 304, headers: { etag: asset.etag, "cache-control": "no-cache" } })
    : HttpServerResponse.text(asset.body, {
        contentType: asset.contentType,
        headers: { etag: asset.etag, "cache-control": "no-cache" }
      })
