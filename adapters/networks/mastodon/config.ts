import { Config, Option } from "effect"

/** Herald on Mastodon: no app to register up front (Herald registers itself on each instance a person names). */
export interface MastodonSettings {
  /** The app name the instance shows on its authorize page and beside each status. */
  readonly clientName: string
  /** Where the instance's app page links to (Herald's public URL unless MASTODON_WEBSITE says otherwise). */
  readonly website: string | null
}

/** What Herald asks of an account: read its profile and instance, post statuses and media. */
export const scopes = "read write"

/**
 * Mastodon is offered unless MASTODON_ENABLED=false. Instances on loopback (plain http too) are the
 * outbound client's call: HERALD_ALLOW_LOOPBACK, for development and tests.
 */
export const config = Config.all({
  enabled: Config.Boolean("MASTODON_ENABLED").pipe(Config.withDefault(true)),
  clientName: Config.String("MASTODON_CLIENT_NAME").pipe(Config.withDefault("Herald")),
  website: Config.option(Config.String("MASTODON_WEBSITE")),
  publicUrl: Config.option(Config.String("HERALD_PUBLIC_URL"))
}).pipe(
  Config.map(
    (c): Option.Option<MastodonSettings> =>
      c.enabled
        ? Option.some({
            clientName: c.clientName.trim() === "" ? "Herald" : c.clientName.trim(),
            website: Option.getOrNull(Option.orElse(c.website, () => c.publicUrl))
          })
        : Option.none()
  )
)

/** Statuses one GET /api/v1/statuses?id[]= reads (Mastodon's DEFAULT_STATUSES_LIMIT). */
export const METRICS_BATCH = 20
