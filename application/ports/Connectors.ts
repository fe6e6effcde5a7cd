import { Context, type Effect, type Option, Schema } from "effect"
import type { HeraldError } from "../../domain/errors.ts"
import type { Platform } from "../../domain/platforms.ts"

/** What a network tells about an account once the person has authorised Herald. */
export interface ConnectedProfile {
  readonly externalId: string
  readonly name: string
  readonly username: string
  readonly avatarUrl: string | null
}

/** What Herald keeps to act as an account on its network. Stored only sealed (TokenVault). */
export interface NetworkCredentials {
  readonly accessToken: string
  /** Null when the network gave none (then the account needs reconnecting when the access token ends). */
  readonly refreshToken: string | null
  /** When the access token stops working (epoch ms); null when it does not expire. */
  readonly expiresAt: number | null
  /** When the refresh token stops working, where the network says (LinkedIn's fixed 365 days, TikTok, Pinterest). */
  readonly refreshExpiresAt?: number | null | undefined
  /** Network-specific values (Bluesky: the DID and the PDS; Facebook: the page id). */
  readonly extra?: Readonly<Record<string, string>> | undefined
}

/** One account a connection made: Facebook can give several (a person's pages), the others one. */
export interface Connection {
  /**
   * The account's network when it is not the connector's own: Facebook Login also gives the
   * Instagram accounts linked to the person's Pages. Absent: the connector's platform.
   */
  readonly platform?: Platform | undefined
  readonly profile: ConnectedProfile
  /** Null for networks that need none (the sandbox). */
  readonly credentials: NetworkCredentials | null
}

export interface BeginInput {
  /** Single-use value that comes back on the callback. */
  readonly state: string
  /** Where the network sends the person back: `${HERALD_PUBLIC_URL}/connect/{platform}/callback`. */
  readonly callbackUrl: string
  /** Herald's own page for networks connected with a form (Bluesky: handle and app password). */
  readonly formUrl: string
  /** What the connect request named besides the network (GET /connect/{platform}?...): Mastodon's instance. */
  readonly params?: Readonly<Record<string, string>> | undefined
}

export interface Begun {
  /** The URL the person opens. */
  readonly url: string
  /** PKCE code verifier, kept with the state until the callback (null without PKCE). */
  readonly verifier: string | null
}

export interface CompleteInput {
  /** The callback's parameters (query string, or the form's fields). */
  readonly params: Readonly<Record<string, string>>
  readonly callbackUrl: string
  readonly verifier: string | null
}

/** The network refused the grant (revoked, expired for good, password changed): a person must connect again. */
export class GrantRevoked extends Schema.TaggedError<GrantRevoked>()("GrantRevoked", { message: Schema.String }) {}

/** The network could not be asked now (down, rate limited): try again later. */
export class NetworkUnavailable extends Schema.TaggedError<NetworkUnavailable>()("NetworkUnavailable", {
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number)
}) {}

/** How a person connects an account of one network (OAuth, a form, or at once for the sandbox), and how its grant is kept alive. */
export interface Connector {
  readonly platform: Platform
  /** The browser URL that starts the connection. */
  readonly begin: (input: BeginInput) => Effect.Effect<Begun, HeraldError>
  /** Finishes the connection from the callback: the accounts it gives access to, with their credentials. */
  readonly complete: (input: CompleteInput) => Effect.Effect<ReadonlyArray<Connection>, HeraldError>
  /** Fresh credentials from the stored ones (a refresh grant, a new session); absent when the network has no refresh. */
  readonly refresh?:
    | ((credentials: NetworkCredentials) => Effect.Effect<NetworkCredentials, GrantRevoked | NetworkUnavailable>)
    | undefined
}

export interface ConnectorsShape {
  /** Networks this server can connect, in display order. */
  readonly available: ReadonlyArray<Platform>
  readonly get: (platform: Platform) => Option.Option<Connector>
}

export class Connectors extends Context.Service<Connectors, ConnectorsShape>()("herald/Connectors") {}
