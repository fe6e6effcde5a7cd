import { Effect, Option } from "effect"
import { BlobStore } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { blueskyConfig } from "./config.ts"

/**
 * Bluesky, unless BLUESKY_ENABLED=false; handles log in at BLUESKY_SERVICE_URL (https://bsky.social).
 * On by default, so its adapter (network.ts, with @atproto/api: ~0.5 s and ~60 MB for a host) loads
 * on the first connect or publish rather than at start; until then this shell stands in for it.
 */
export const network = Effect.gen(function* () {
  const config = yield* blueskyConfig
  if (!config.enabled) return Option.none<Network>()
  const blobs = yield* BlobStore
  let loading: Promise<Network> | undefined
  const adapter = Effect.promise(
    () => (loading ??= import("./network.ts").then((m) => m.makeNetwork({ serviceUrl: config.serviceUrl }, blobs)))
  )
  return Option.some<Network>({
    platform: "bluesky",
    connector: {
      platform: "bluesky",
      begin: (input) => Effect.flatMap(adapter, (n) => n.connector.begin(input)),
      complete: (input) => Effect.flatMap(adapter, (n) => n.connector.complete(input)),
      refresh: (credentials) => Effect.flatMap(adapter, (n) => n.connector.refresh!(credentials))
    },
    publisher: {
      platform: "bluesky",
      prepare: (request) => Effect.flatMap(adapter, (n) => n.publisher.prepare!(request)),
      publish: (request, handle) => Effect.flatMap(adapter, (n) => n.publisher.publish(request, handle)),
      recover: (request, handle) => Effect.flatMap(adapter, (n) => n.publisher.recover!(request, handle))
    }
  })
})
