import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
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
  ["app.js", read("app.js", "text/javascript; charset=utf-8")],
  // The views' modules (app.js imports each on its view only) and what they share.
  ...[
    "core.mjs",
    "queue.mjs",
    "queueCards.mjs",
    "editParts.mjs",
    "calendar.mjs",
    "history.mjs",
    "figures.mjs",
    "accounts.mjs",
    "keys.mjs",
    "settings.mjs"
  ].map((name) => [name, read(name, "text/javascript; charset=utf-8")] as const),
  ["app.css", read("app.css", "text/css; charset=utf-8")],
  ["compose.mjs", read("compose.mjs", "text/javascript; charset=utf-8")],
  ...[
    "composeParts.mjs",
    "composeAdvice.mjs",
    "composeDraft.mjs",
    "composeKeep.mjs",
    "composeOptions.mjs",
    "composeOverrides.mjs"
  ].map((name) => [name, read(name, "text/javascript; charset=utf-8")] as const),
  ["compose.css", read("compose.css", "text/css; charset=utf-8")]
])

// htm's folder, found as Node finds the package (its main is dist/htm.js), from the sources or from dist/.
const htm = new URL("../", pathToFileURL(createRequire(import.meta.url).resolve("htm")))
const htmVersion = (JSON.parse(readFileSync(new URL("package.json", htm), "utf8")) as { version: string }).version

/**
 * Preact 10 with hooks and htm in one module with no imports (htm's preact/standalone.mjs), for the
 * composer. Its name carries htm's version (compose.mjs imports that name), so it is cached for good.
 */
export const vendor: ReadonlyMap<string, Asset> = new Map([
  [
    `preact-htm-${htmVersion}.mjs`,
    {
      body: readFileSync(new URL("preact/standalone.mjs", htm), "utf8"),
      contentType: "text/javascript; charset=utf-8",
      etag: `"htm-${htmVersion}"`
    }
  ]
])

/** A vendored file's answer: its name changes with its version, so browsers keep it without asking again. */
export const vendorResponse = (asset: Asset) =>
  HttpServerResponse.text(asset.body, {
    contentType: asset.contentType,
    headers: { etag: asset.etag, "cache-control": "public, max-age=31536000, immutable" }
  })

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
