import { Config, Context, Effect, Option } from "effect"

/** Limits that operators may tune; defaults follow DESIGN.md. */
export interface RateLimits {
  readonly signupPerIpPerHour: number
  readonly signupPerEmailPerDay: number
  readonly claimLinksPerWorkspacePerHour: number
  readonly signinLinksPerEmailPerHour: number
  readonly signupsPerDay: number
}

export interface HeraldConfigShape {
  /** Absolute base for links in e-mails and media URLs, without a trailing slash. */
  readonly publicUrl: string
  readonly keyPrefix: string
  readonly signupEnabled: boolean
  readonly limits: RateLimits
}

export class HeraldConfig extends Context.Service<HeraldConfig, HeraldConfigShape>()("herald/HeraldConfig") {}

export const defaultLimits: RateLimits = {
  signupPerIpPerHour: 5,
  signupPerEmailPerDay: 3,
  claimLinksPerWorkspacePerHour: 3,
  signinLinksPerEmailPerHour: 5,
  signupsPerDay: 500
}

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
  signupPerIpPerHour: Config.Int("HERALD_SIGNUP_PER_IP_PER_HOUR").pipe(Config.withDefault(defaultLimits.signupPerIpPerHour)),
  signupPerEmailPerDay: Config.Int("HERALD_SIGNUP_PER_EMAIL_PER_DAY").pipe(Config.withDefault(defaultLimits.signupPerEmailPerDay)),
  claimLinksPerWorkspacePerHour: Config.Int("HERALD_CLAIM_LINKS_PER_HOUR").pipe(Config.withDefault(defaultLimits.claimLinksPerWorkspacePerHour)),
  signinLinksPerEmailPerHour: Config.Int("HERALD_SIGNIN_LINKS_PER_HOUR").pipe(Config.withDefault(defaultLimits.signinLinksPerEmailPerHour)),
  signupsPerDay: Config.Int("HERALD_SIGNUPS_PER_DAY").pipe(Config.withDefault(defaultLimits.signupsPerDay))
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
    signupsPerDay: env.signupsPerDay
  }
})

export const loadConfig = Effect.map(heraldConfig, (env) => ({ env, config: fromEnv(env) }))
