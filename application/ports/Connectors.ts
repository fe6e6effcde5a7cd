import { Context, type Effect, type Option } from "effect"
import type { HeraldError } from "../../domain/errors.ts"
import type { Platform } from "../../domain/platforms.ts"

/** What a network tells about an account once the person has authorised Herald. */
export interface ConnectedProfile {
  readonly externalId: string
  readonly name: string
  readonly username: string
  readonly avatarUrl: string | null
}

/** How a person connects an account of one network (OAuth, or at once for the sandbox). */
export interface Connector {
  readonly platform: Platform
  /** The browser URL that starts the connection; `callbackUrl` carries `state` back to Herald. */
  readonly authorizeUrl: (state: string, callbackUrl: string) => string
  /** Finishes the connection from the callback's query parameters. */
  readonly complete: (params: Readonly<Record<string, string>>, callbackUrl: string) => Effect.Effect<ConnectedProfile, HeraldError>
}

export interface ConnectorsShape {
  /** Networks this server can connect, in display order. */
  readonly available: ReadonlyArray<Platform>
  readonly get: (platform: Platform) => Option.Option<Connector>
}

export class Connectors extends Context.Service<Connectors, ConnectorsShape>()("herald/Connectors") {}
