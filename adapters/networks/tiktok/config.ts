import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's TikTok app (Login Kit and Content Posting API) and the hosts it talks to; every host can be overridden. */
export interface TikTokConfig {
  /** TikTok calls the client id the client key. */
  readonly clientKey: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /v2/... (uploads go to the upload_url TikTok names). */
  readonly apiUrl: string
  /** Bytes per upload chunk, 5-64 MB as TikTok's media transfer guide asks (videos under 5 MB go whole). */
  readonly chunkBytes: number
}

/**
 * Connecting asks to post (video.publish: Direct Post), to send drafts to the creator's inbox
 * (video.upload: tiktok.draft) and, for its figures, to read the creator's videos (video.list).
 */
export const scopes = ["user.info.basic", "video.publish", "video.upload", "video.list"] as const

/** /v2/video/query/ takes up to 20 video ids: videos whose figures one read gets. */
export const METRICS_BATCH = 20

export const MIN_CHUNK = 5 * 1024 * 1024
export const MAX_CHUNK = 64 * 1024 * 1024

const filled = (value: string) => value.trim() !== ""

/** TikTok is offered when TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientKey: Config.option(Config.String("TIKTOK_CLIENT_KEY")),
  clientSecret: Config.option(Config.Redacted("TIKTOK_CLIENT_SECRET")),
  authorizeUrl: Config.String("TIKTOK_AUTHORIZE_URL").pipe(
    Config.withDefault("https://www.tiktok.com/v2/auth/authorize/")
  ),
  tokenUrl: Config.String("TIKTOK_TOKEN_URL").pipe(Config.withDefault("https://open.tiktokapis.com/v2/oauth/token/")),
  apiUrl: Config.String("TIKTOK_API_URL").pipe(Config.withDefault("https://open.tiktokapis.com")),
  chunkBytes: Config.Int("TIKTOK_CHUNK_BYTES").pipe(
    Config.withDefault(10_000_000),
    Config.map((n) => Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, n)))
  )
}).pipe(
  Config.map((c): Option.Option<TikTokConfig> => {
    const clientKey = Option.filter(c.clientKey, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientKey) || Option.isNone(clientSecret)) return Option.none()
    return Option.some({
      clientKey: clientKey.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl: baseUrl(c.apiUrl),
      chunkBytes: c.chunkBytes
    })
  })
)
