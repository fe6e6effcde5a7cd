import { Option } from "effect"
import type { Platform } from "../../domain/platforms.ts"
import type { Connector, ConnectorsShape } from "./Connectors.ts"
import type { Publisher, PublishersShape } from "./Publishers.ts"

/** One network's adapter as a host lists it: how its accounts connect and how posts reach them. */
export interface Network {
  readonly platform: Platform
  readonly connector: Connector
  readonly publisher: Publisher
}

/** A Connectors registry over these connectors, offered in the order given. */
export const connectorsOf = (connectors: ReadonlyArray<Connector>): ConnectorsShape => {
  const byPlatform = new Map(connectors.map((c) => [c.platform, c]))
  return {
    available: connectors.map((c) => c.platform),
    get: (platform: Platform) => Option.fromNullishOr(byPlatform.get(platform))
  }
}

/** A Publishers registry over these publishers. */
export const publishersOf = (publishers: ReadonlyArray<Publisher>): PublishersShape => {
  const byPlatform = new Map(publishers.map((p) => [p.platform, p]))
  return { get: (platform: Platform) => Option.fromNullishOr(byPlatform.get(platform)) }
}
