import { Config, Context, Effect, Option, Schema } from "effect"

/** Limits that operators may tune; defaults follow DESIGN.md. */
export interface RateLimits {
  readonly signupPerIpPerHour: number
  readonly signupPerEmailPerDay: number
  readonly claimLinksPerWorkspacePerHour: number
  readonly signinLinksPerEmailPerHour: number
  readonly signupsPerDay: number
  /** Tries of one connect link's password form (Bluesky) before the link is spent. */
  readonly connectFormTriesPerLink: number
  /** Password-form tries an hour per workspace, and per client address: no password oracle. */
  readonly connectFormPerWorkspacePerHour: number
  readonly connectFormPerAddressPerHour: number
}

export interface HeraldConfigShape {
  /** Absolute base for links in e-mails and media URLs, without a trailing slash. */
  readonly publicUrl: string
  readonly keyPrefix: string
  readonly signupEnabled: boolean
  readonly limits: RateLimits
  readonly requestLimits: RequestLimits
}

export class HeraldConfig extends Context.Service<HeraldConfig, HeraldConfigShape>()("herald/HeraldConfig") {}

export const defaultLimits: RateLimits = {
  signupPerIpPerHour: 5,
  signupPerEmailPerDay: 3,
  claimLinksPerWorkspacePerHour: 3,
  signinLinksPerEmailPerHour: 5,
  signupsPerDay: 500,
  connectFormTriesPerLink: 5,
  connectFormPerWorkspacePerHour: 20,
  connectFormPerAddressPerHour: 20
}

/**
 * Request limits of REST and MCP (application/requestLimiter.ts): every authenticated request counts
 * against its key's budget and its workspace's (a person's session against the workspace's only), in
 * fixed windows of a minute shared through the database. A process leases a share of a budget at a
 * time and spends it in memory, so no request waits on the database for its count.
 */
export interface RequestLimits {
  /** Requests a minute per API key (MCP tool calls included); 0 turns the limit off. */
  readonly perKeyPerMinute: number
  /** Requests a minute per workspace, all its keys and people together; 0 turns the limit off. */
  readonly perWorkspacePerMinute: number
  /** The share of a minute's budget a process leases at a time, in percent (0: one request a lease). */
  readonly leasePercent: number
}

export const defaultRequestLimits: RequestLimits = {
  perKeyPerMinute: 600,
  perWorkspacePerMinute: 1200,
  leasePercent: 10
}

/** The largest request body each kind of route reads, in bytes (media uploads keep their own limits). */
export interface BodyLimits {
  /** JSON API routes other than POST /posts: sign-up, keys, actions, claim-link. */
  readonly json: number
  /** POST /api/v1/posts: content up to 63,206 characters, threads, escapes. */
  readonly posts: number
  /** The pages' forms (sign-in, claim). */
  readonly forms: number
  /** MCP over HTTP: JSON-RPC carrying upload_media's base64 (10 MB files). */
  readonly mcp: number
  /** POST /api/v1/posts/batch: up to 1,000 posts, JSON or CSV. */
  readonly batch: number
}

/** How the HTTP host reads requests: body limits and where the client's address comes from. */
export interface HttpSettingsShape {
  readonly bodyLimits: BodyLimits
  /** X-Forwarded-For trust: "false", a number of proxy hops, or a comma-separated list of proxy addresses and CIDRs. */
  readonly trustProxy: string
  /** IPv6 clients share a sign-up rate-limit bucket per network of this prefix length (a /64 is one household or host). */
  readonly ipv6Prefix: number
}

const KiB = 1024
export const defaultHttpSettings: HttpSettingsShape = {
  bodyLimits: { json: 64 * KiB, posts: 1024 * KiB, forms: 16 * KiB, mcp: 20 * 1024 * KiB, batch: 8 * 1024 * KiB },
  trustProxy: "false",
  ipv6Prefix: 64
}

/** The HTTP host's settings; the defaults hold where no host provides them (tests). */
export const HttpSettings = Context.Reference<HttpSettingsShape>("herald/HttpSettings", {
  defaultValue: () => defaultHttpSettings
})

/**
 * One development setting for every outbound call (webhooks, link cards, PDSs, instances) to hosts on
 * this machine; HERALD_WEBHOOKS_ALLOW_LOOPBACK is its older name, still read.
 */
export const allowLoopbackConfig = Config.Boolean("HERALD_ALLOW_LOOPBACK").pipe(
  Config.orElse(() => Config.Boolean("HERALD_WEBHOOKS_ALLOW_LOOPBACK")),
  Config.withDefault(false)
)

/** The configuration schema: every environment variable Herald reads, with its default. */
export const heraldConfig = Config.all({
  port: Config.Int("PORT").pipe(Config.withDefault(8080)),
  publicUrl: Config.option(Config.String("HERALD_PUBLIC_URL")),
  dataDir: Config.String("HERALD_DATA_DIR").pipe(Config.withDefault("./data")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  databasePoolSize: Config.Int("DATABASE_POOL_SIZE").pipe(Config.withDefault(20)),
  accessLog: Config.Boolean("HERALD_ACCESS_LOG").pipe(Config.withDefault(false)),
  readCacheMs: Config.Int("HERALD_READ_CACHE_MS").pipe(Config.withDefault(5000)),
  keyPrefix: Config.String("HERALD_KEY_PREFIX").pipe(Config.withDefault("hrld")),
  signupEnabled: Config.Boolean("HERALD_SIGNUP_ENABLED").pipe(Config.withDefault(true)),
  smtpUrl: Config.option(Config.Redacted("SMTP_URL")),
  signupPerIpPerHour: Config.Int("HERALD_SIGNUP_PER_IP_PER_HOUR").pipe(
    Config.withDefault(defaultLimits.signupPerIpPerHour)
  ),
  signupPerEmailPerDay: Config.Int("HERALD_SIGNUP_PER_EMAIL_PER_DAY").pipe(
    Config.withDefault(defaultLimits.signupPerEmailPerDay)
  ),
  claimLinksPerWorkspacePerHour: Config.Int("HERALD_CLAIM_LINKS_PER_HOUR").pipe(
    Config.withDefault(defaultLimits.claimLinksPerWorkspacePerHour)
  ),
  signinLinksPerEmailPerHour: Config.Int("HERALD_SIGNIN_LINKS_PER_HOUR").pipe(
    Config.withDefault(defaultLimits.signinLinksPerEmailPerHour)
  ),
  signupsPerDay: Config.Int("HERALD_SIGNUPS_PER_DAY").pipe(Config.withDefault(defaultLimits.signupsPerDay)),
  connectFormTriesPerLink: Config.Int("HERALD_CONNECT_FORM_TRIES_PER_LINK").pipe(
    Config.withDefault(defaultLimits.connectFormTriesPerLink)
  ),
  connectFormPerWorkspacePerHour: Config.Int("HERALD_CONNECT_FORM_PER_WORKSPACE_PER_HOUR").pipe(
    Config.withDefault(defaultLimits.connectFormPerWorkspacePerHour)
  ),
  connectFormPerAddressPerHour: Config.Int("HERALD_CONNECT_FORM_PER_IP_PER_HOUR").pipe(
    Config.withDefault(defaultLimits.connectFormPerAddressPerHour)
  ),
  jsonBodyLimit: Config.Int("HERALD_JSON_BODY_LIMIT").pipe(Config.withDefault(defaultHttpSettings.bodyLimits.json)),
  postsBodyLimit: Config.Int("HERALD_POSTS_BODY_LIMIT").pipe(Config.withDefault(defaultHttpSettings.bodyLimits.posts)),
  formBodyLimit: Config.Int("HERALD_FORM_BODY_LIMIT").pipe(Config.withDefault(defaultHttpSettings.bodyLimits.forms)),
  mcpBodyLimit: Config.Int("HERALD_MCP_BODY_LIMIT").pipe(Config.withDefault(defaultHttpSettings.bodyLimits.mcp)),
  batchBodyLimit: Config.Int("HERALD_BATCH_BODY_LIMIT").pipe(Config.withDefault(defaultHttpSettings.bodyLimits.batch)),
  trustProxy: Config.String("HERALD_TRUST_PROXY").pipe(Config.withDefault(defaultHttpSettings.trustProxy)),
  ipv6Prefix: Config.Int("HERALD_IPV6_PREFIX").pipe(Config.withDefault(defaultHttpSettings.ipv6Prefix)),
  // Request limits of REST and MCP (RequestLimits above).
  keyRequestsPerMinute: Config.Int("HERALD_KEY_REQUESTS_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestLimits.perKeyPerMinute)
  ),
  workspaceRequestsPerMinute: Config.Int("HERALD_WORKSPACE_REQUESTS_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestLimits.perWorkspacePerMinute)
  ),
  requestLeasePercent: Config.Int("HERALD_REQUEST_LEASE_PERCENT").pipe(
    Config.withDefault(defaultRequestLimits.leasePercent)
  ),
  allowLoopback: allowLoopbackConfig
})

export type HeraldEnv = Config.Success<typeof heraldConfig>

export const fromEnv = (env: HeraldEnv): HeraldConfigShape => ({
  publicUrl: Option.getOrElse(env.publicUrl, () => `http://localhost:${env.port}`).replace(/\/+$/, ""),
  keyPrefix: env.keyPrefix,
  signupEnabled: env.signupEnabled,
  limits: {
    signupPerIpPerHour: env.signupPerIpPerHour,
    signupPerEmailPerDay: env.signupPerEmailPerDay,
    claimLinksPerWorkspacePerHour: env.claimLinksPerWorkspacePerHour,
    signinLinksPerEmailPerHour: env.signinLinksPerEmailPerHour,
    signupsPerDay: env.signupsPerDay,
    connectFormTriesPerLink: env.connectFormTriesPerLink,
    connectFormPerWorkspacePerHour: env.connectFormPerWorkspacePerHour,
    connectFormPerAddressPerHour: env.connectFormPerAddressPerHour
  },
  requestLimits: {
    perKeyPerMinute: env.keyRequestsPerMinute,
    perWorkspacePerMinute: env.workspaceRequestsPerMinute,
    leasePercent: env.requestLeasePercent
  }
})

export const httpSettingsFromEnv = (env: HeraldEnv): HttpSettingsShape => ({
  bodyLimits: {
    json: env.jsonBodyLimit,
    posts: env.postsBodyLimit,
    forms: env.formBodyLimit,
    mcp: env.mcpBodyLimit,
    batch: env.batchBodyLimit
  },
  trustProxy: env.trustProxy,
  ipv6Prefix: env.ipv6Prefix
})

/** A setting that cannot be read, said in one line naming its variable (never its value: it may be a secret). */
export class SettingInvalid extends Schema.TaggedError<SettingInvalid>()("SettingInvalid", {
  message: Schema.String
}) {}

/** Config's nested error (ConfigError(SchemaError(... at ["PORT"]))) as one line. */
export const settingInvalid = (error: Config.ConfigError): SettingInvalid => {
  const issue = (error.cause as { issue?: { _tag?: string; path?: ReadonlyArray<PropertyKey> } }).issue
  const variable = issue?._tag === "Pointer" && issue.path !== undefined ? issue.path.map(String).join(".") : null
  const problem = (error.cause instanceof Error ? error.cause.message : error.message).split("\n")[0]!.trim()
  return new SettingInvalid({
    message: variable === null ? `a setting is not valid: ${problem}` : `${variable} is not valid: ${problem}`
  })
}

export const loadConfig = heraldConfig.pipe(
  Effect.mapError(settingInvalid),
  Effect.map((env) => ({
    env,
    config: fromEnv(env),
    http: httpSettingsFromEnv(env)
  }))
)
