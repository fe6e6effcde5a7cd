import { Config } from "effect"

/** Where handles log in when BLUESKY_SERVICE_URL is not set. */
export const DEFAULT_SERVICE_URL = "https://bsky.social"

/** Where posts' public counts are read (app.bsky.feed.getPosts needs no login there). */
export const DEFAULT_APPVIEW_URL = "https://public.api.bsky.app"

/** app.bsky.feed.getPosts takes up to 25 post URIs: posts whose figures one read gets. */
export const METRICS_BATCH = 25

/**
 * Bluesky's settings. It needs no app registration (accounts connect with app passwords), so it is
 * offered unless BLUESKY_ENABLED=false; BLUESKY_SERVICE_URL is where handles log in (the account's
 * own PDS is then read from the session).
 */
export const blueskyConfig = Config.all({
  enabled: Config.Boolean("BLUESKY_ENABLED").pipe(Config.withDefault(true)),
  serviceUrl: Config.String("BLUESKY_SERVICE_URL").pipe(Config.withDefault(DEFAULT_SERVICE_URL)),
  appViewUrl: Config.String("BLUESKY_APPVIEW_URL").pipe(Config.withDefault(DEFAULT_APPVIEW_URL))
})

export interface BlueskyOptions {
  /** Where createSession goes: an entryway (bsky.social) or a PDS. */
  readonly serviceUrl: string
  /** Where posts' counts are read (BLUESKY_APPVIEW_URL); the public AppView when absent. */
  readonly appViewUrl?: string | undefined
  /** The fetch every XRPC call goes through (tests wrap it to watch and script calls). */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** Milliseconds an XRPC call may take (uploads get four times as long). */
  readonly callTimeoutMs?: number | undefined
}
