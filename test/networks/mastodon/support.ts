import { Effect } from "effect"
import * as Mastodon from "../../../adapters/networks/mastodon/adapter.ts"
import * as Outbound from "../../../adapters/outbound/client.ts"
import { type AppRegistry, memoryRegistry } from "../../../adapters/networks/mastodon/apps.ts"
import type { MastodonSettings } from "../../../adapters/networks/mastodon/config.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeMastodon } from "./fakeMastodon.ts"

export { publishedOf, processingOf, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("mastodon")

export const settings: MastodonSettings = { clientName: "Herald", website: "http://herald.test" }

/** The outbound client with HERALD_ALLOW_LOOPBACK: the instance stand-in is on this machine. */
export const loopbackAllowed = Outbound.layer({ allowLoopback: true })

/** The network on a memory blob store and `apps` (a fresh registry unless a test shares one). */
export const mastodonOn = (apps: AppRegistry = memoryRegistry()) =>
  Effect.gen(function* () {
    const { blobs } = yield* Harness.onMemoryBlobs((b) => b)
    const network = yield* Mastodon.make(settings, blobs, apps)
    return { network, blobs }
  })

/** The browser part: GET /connect/mastodon?instance=..., the instance's authorize page, back to the callback. */
export const connect = (network: Network, instance: string, state = "state-1") =>
  Effect.gen(function* () {
    const begun = yield* network.connector.begin({
      state,
      callbackUrl: CALLBACK,
      formUrl: "",
      params: { instance }
    })
    const params = yield* Harness.authorize(begun.url)
    return yield* network.connector.complete({ params, callbackUrl: CALLBACK, verifier: begun.verifier })
  })

export const accountOf = (connection: Connection) => Harness.accountOf("mastodon", "acc_m1", connection)

export const request = (connection: Connection, fields: Partial<PublishRequest> = {}): PublishRequest =>
  Harness.publishRequest(accountOf(connection), connection.credentials as NetworkCredentials, fields)

export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.map(Harness.upload(blobs, { type, mimeType, bytes }), ({ media }) => media)

export const fakeOrigin = (fake: FakeMastodon) => fake.origin
