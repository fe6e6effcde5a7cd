import type { MetricName, MetricSource } from "../../../domain/metrics.ts"
import type { Config, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { Network } from "../../../application/ports/Network.ts"
import type { NetworkRules } from "../../../domain/networkRules.ts"
import type { Platform } from "../../../domain/platforms.ts"
import type { ConnectForm } from "./connectForm.ts"

/**
 * What a network folder declares in its index.ts: everything Herald knows of the network before
 * its adapter loads. Its platform, label, rules row and description are where Herald's names,
 * rules table, MCP prose, the app's labels and the README's list come from (`npm run networks`
 * writes domain/networks.generated.ts from them); its config turns it on; `load` brings the
 * adapter (Connector and Publisher) on the network's first use.
 */
export interface NetworkDeclaration<Settings = any, R = any> {
  readonly platform: Platform
  /** The network's name, for people. */
  readonly label: string
  /** One line for agents and readers: how an account connects, what a post may carry. */
  readonly describe: string
  /** Its row of the rules table. */
  readonly rules: NetworkRules
  /** Its settings, read once: none when they leave it off. */
  readonly config: Config.Config<Option.Option<Settings>>
  /** Whether its connector renews a grant (Connector.refresh), known without loading it. */
  readonly renews: boolean
  /** Most posts one read of figures takes (Publisher.metrics.batch); absent when its adapter reads no figures. */
  readonly metricsBatch?: number | undefined
  /** How its raw figures make the common set, or why one is never given; absent: it gives none Herald reads. */
  readonly metricSources?: Readonly<Record<MetricName, MetricSource>> | undefined
  /** Offered with no settings at all (off only by its <PLATFORM>_ENABLED=false): test hosts leave it off. */
  readonly offeredWithoutSettings?: boolean | undefined
  /** Whether its posts go to boards (Publisher.boards). */
  readonly boards?: boolean | undefined
  /** Whether its API lets Herald remove a published post (Publisher.unpublish), known without loading it. */
  readonly unpublishes?: boolean | undefined
  /** Herald's own connect form (a handle and app password, a bot token, a webhook URL, an instance), when it has one. */
  readonly connectForm?: ConnectForm | undefined
  /** Tables of its own, made by the Postgres migrator (ids 0040-0049, a table of their own). */
  readonly migrations?: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> | undefined
  /** Its adapter module: `build` makes the network from its settings and the services it needs. */
  readonly load: () => Promise<{ readonly build: (settings: Settings) => Effect.Effect<Network, never, R> }>
}

/** A folder's declaration, its settings' and services' types kept. */
export const declareNetwork = <Settings, R>(declaration: NetworkDeclaration<Settings, R>) => declaration
