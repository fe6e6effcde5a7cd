import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/**
 * The Graph API version Facebook and Instagram calls name, in ONE setting (META_GRAPH_VERSION):
 * Meta retires a version about two years after the next one comes out, so moving all of Herald's
 * Meta calls is one change. Threads has its own API version (v1.0), not this one.
 */
export const DEFAULT_GRAPH_VERSION = "v26.0"
export const THREADS_API_VERSION = "v1.0"

/** "26", "26.0" and "v26.0" all name v26.0. */
const normalVersion = (value: string) => {
  const v = value.trim().replace(/^v/i, "")
  return `v${/^\d+$/.test(v) ? `${v}.0` : v}`
}

export const graphVersion = Config.String("META_GRAPH_VERSION").pipe(
  Config.withDefault(DEFAULT_GRAPH_VERSION),
  Config.map(normalVersion)
)

/** One Meta app (Facebook, Instagram or Threads) and the hosts it talks to; each can be overridden. */
export interface MetaAppConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** The API host; Herald appends `/{version}/…`. */
  readonly apiUrl: string
  /** The API version its calls name. */
  readonly version: string
}

export interface MetaHosts {
  readonly authorizeUrl: (version: string) => string
  readonly tokenUrl: (version: string) => string
  readonly apiUrl: string
}

const filled = (value: string) => value.trim() !== ""

/**
 * `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET` (the app is offered only when both are set),
 * with `<PREFIX>_AUTHORIZE_URL`, `<PREFIX>_TOKEN_URL` and `<PREFIX>_API_URL` overriding Meta's hosts.
 */
export const metaApp = (
  prefix: "FACEBOOK" | "INSTAGRAM" | "THREADS",
  hosts: MetaHosts,
  version: Config.Config<string>
) =>
  Config.all({
    clientId: Config.option(Config.String(`${prefix}_CLIENT_ID`)),
    clientSecret: Config.option(Config.Redacted(`${prefix}_CLIENT_SECRET`)),
    authorizeUrl: Config.option(Config.String(`${prefix}_AUTHORIZE_URL`)),
    tokenUrl: Config.option(Config.String(`${prefix}_TOKEN_URL`)),
    apiUrl: Config.option(Config.String(`${prefix}_API_URL`)),
    version
  }).pipe(
    Config.map((c): Option.Option<MetaAppConfig> => {
      const clientId = Option.filter(c.clientId, filled)
      const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
      if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
      const or = (value: Option.Option<string>, fallback: string) =>
        Option.getOrElse(Option.filter(value, filled), () => fallback)
      return Option.some({
        clientId: clientId.value,
        clientSecret: clientSecret.value,
        authorizeUrl: or(c.authorizeUrl, hosts.authorizeUrl(c.version)),
        tokenUrl: or(c.tokenUrl, hosts.tokenUrl(c.version)),
        apiUrl: baseUrl(or(c.apiUrl, hosts.apiUrl)),
        version: c.version
      })
    })
  )

/** Facebook Login (Pages, and the Instagram accounts linked to them): graph.facebook.com. */
export const facebookHosts: MetaHosts = {
  authorizeUrl: (v) => `https://www.facebook.com/${v}/dialog/oauth`,
  tokenUrl: (v) => `https://graph.facebook.com/${v}/oauth/access_token`,
  apiUrl: "https://graph.facebook.com"
}

/** Instagram API with Instagram Login: graph.instagram.com. */
export const instagramHosts: MetaHosts = {
  authorizeUrl: () => "https://www.instagram.com/oauth/authorize",
  tokenUrl: () => "https://api.instagram.com/oauth/access_token",
  apiUrl: "https://graph.instagram.com"
}

/** The Threads API: graph.threads.net. */
export const threadsHosts: MetaHosts = {
  authorizeUrl: () => "https://threads.net/oauth/authorize",
  tokenUrl: () => "https://graph.threads.net/oauth/access_token",
  apiUrl: "https://graph.threads.net"
}

export const facebookApp = metaApp("FACEBOOK", facebookHosts, graphVersion)
export const instagramApp = metaApp("INSTAGRAM", instagramHosts, graphVersion)
export const threadsApp = metaApp("THREADS", threadsHosts, Config.succeed(THREADS_API_VERSION))
