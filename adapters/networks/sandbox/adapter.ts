import { Effect } from "effect"
import type { Network } from "../../../application/ports/Network.ts"
import { connector } from "./SandboxConnector.ts"
import { SandboxPublisherTag } from "./SandboxPublisher.ts"

/** The sandbox network, with whichever sandbox publisher the host provides (ledger in memory or SQL). */
export const build = (_settings: unknown) =>
  Effect.map(SandboxPublisherTag, (publisher): Network => ({ platform: "sandbox", connector, publisher }))

export { connector }
