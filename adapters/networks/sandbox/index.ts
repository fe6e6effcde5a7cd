import { from, none } from "../../../domain/metrics.ts"
import { Config, Option } from "effect"
import { declareNetwork } from "../shared/declaration.ts"
import { ledgerMigration, ledgerPublishesMigration, ledgerRemovalsMigration } from "./ledgerMigration.ts"

/** Herald's own network for trying the whole flow: always on, its posts kept in Herald's database. */
export const network = declareNetwork({
  platform: "sandbox",
  label: "Sandbox",
  describe:
    "Herald's built-in test network, always on: connecting is one GET, posts are 'published' inside Herald, and content with #fail fails.",
  rules: {
    textLimit: 10_000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 20,
    mixedMedia: true,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 10_000,
    cover: true,
    videoMaxSeconds: null,
    poll: { minOptions: 2, maxOptions: 4, maxOptionLength: 30, durationMinutes: { min: 5, max: 14 * 24 * 60 } },
    source: "Herald's built-in sandbox: accepts every capability"
  },
  config: Config.succeed(Option.some({})),
  renews: false,
  metricsBatch: 100,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("views"),
    likes: from("likes"),
    replies: from("replies"),
    reposts: from("reposts"),
    saves: from("saves"),
    clicks: from("clicks"),
    watchTimeSeconds: none("The sandbox has no video player.")
  },
  unpublishes: true,
  migrations: {
    "0040_sandbox_ledger": ledgerMigration,
    "0042_sandbox_ledger_publishes": ledgerPublishesMigration,
    "0070_sandbox_ledger_removals": ledgerRemovalsMigration
  },
  load: () => import("./adapter.ts")
})
export { connector } from "./SandboxConnector.ts"
