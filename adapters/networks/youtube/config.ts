import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's Google OAuth client for YouTube and the hosts it talks to; every host can be overridden (proxies, tests). */
export interface YouTubeConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /youtube/v3/... */
  readonly apiUrl: string
  /** Herald appends /upload/youtube/v3/... (videos and thumbnails); the API host unless YOUTUBE_UPLOAD_URL says otherwise. */
  readonly uploadUrl: string
  /** Bytes per resumable-upload request: a multiple of 256 KiB. */
  readonly chunkBytes: number
  /** The project's daily quota: video uploads (videos.insert has its own bucket) and units for every other call. */
  readonly dailyUploads: number
  readonly dailyUnits: number
}

/** Uploading videos and thumbnails, and comments (commentThreads.insert needs force-ssl, which also reads the channel). */
export const scopes = [
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.force-ssl"
] as const

/** videos.list takes up to 50 ids (1 unit a call): videos whose figures one read gets. */
export const METRICS_BATCH = 50

const KIB_256 = 256 * 1024
const filled = (value: string) => value.trim() !== ""

/** YouTube is offered when YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("YOUTUBE_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("YOUTUBE_CLIENT_SECRET")),
  authorizeUrl: Config.String("YOUTUBE_AUTHORIZE_URL").pipe(
    Config.withDefault("https://accounts.google.com/o/oauth2/v2/auth")
  ),
  tokenUrl: Config.String("YOUTUBE_TOKEN_URL").pipe(Config.withDefault("https://oauth2.googleapis.com/token")),
  apiUrl: Config.String("YOUTUBE_API_URL").pipe(Config.withDefault("https://www.googleapis.com")),
  uploadUrl: Config.option(Config.String("YOUTUBE_UPLOAD_URL")),
  // YouTube takes chunks in multiples of 256 KiB: rounded down to one, at least one.
  chunkBytes: Config.Int("YOUTUBE_CHUNK_BYTES").pipe(
    Config.withDefault(8 * 1024 * 1024),
    Config.map((n) => Math.max(KIB_256, Math.floor(n / KIB_256) * KIB_256))
  ),
  dailyUploads: Config.Int("YOUTUBE_DAILY_UPLOADS").pipe(Config.withDefault(100)),
  dailyUnits: Config.Int("YOUTUBE_DAILY_UNITS").pipe(Config.withDefault(10_000))
}).pipe(
  Config.map((c): Option.Option<YouTubeConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    const apiUrl = baseUrl(c.apiUrl)
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl,
      uploadUrl: baseUrl(Option.getOrElse(Option.filter(c.uploadUrl, filled), () => apiUrl)),
      chunkBytes: c.chunkBytes,
      dailyUploads: c.dailyUploads,
      dailyUnits: c.dailyUnits
    })
  })
)
