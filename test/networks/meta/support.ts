import { Effect, Option, Redacted } from "effect"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as Facebook from "../../../adapters/networks/facebook/adapter.ts"
import * as ReelLedger from "../../../adapters/networks/facebook/reelLedger.ts"
import * as Instagram from "../../../adapters/networks/instagram/adapter.ts"
import type { MetaAppConfig } from "../../../adapters/networks/meta/config.ts"
import * as Threads from "../../../adapters/networks/threads/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection } from "../../../application/ports/Connectors.ts"
import type { Platform } from "../../../domain/platforms.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeGraph } from "./fakeGraph.ts"

export {
  authorize,
  callbackFor,
  connectAll as connect,
  processingOf,
  publishedOf,
  publishRequest as requestFor,
  setNow,
  T0
} from "../shared/harness.ts"

export const VERSION = "v26.0"

/** One Meta app's settings pointing at the fake. */
export const appFor = (fake: FakeGraph, app: "facebook" | "instagram" | "threads"): MetaAppConfig => {
  const env = fake.env(VERSION)
  const prefix = app.toUpperCase()
  return {
    clientId: env[`${prefix}_CLIENT_ID`]!,
    clientSecret: Redacted.make(env[`${prefix}_CLIENT_SECRET`]!),
    authorizeUrl: env[`${prefix}_AUTHORIZE_URL`]!,
    tokenUrl: env[`${prefix}_TOKEN_URL`]!,
    apiUrl: fake.origin,
    version: app === "threads" ? "v1.0" : VERSION
  }
}

/** Herald's uploads as Meta fetches them, links checked against the fake's clock (Herald's own route is exercised end to end). */
export const startFiles = (fake: FakeGraph) =>
  Harness.serveBlobs(HmacFileLinks.make("meta adapter tests"), () => fake.state.clock ?? Date.now())
export type Files = Harness.ServedBlobs

export const facebookOn = (fake: FakeGraph, files: Files) =>
  Facebook.make(appFor(fake, "facebook"), files.blobs, ReelLedger.makeMemory())
export const instagramOn = (
  fake: FakeGraph,
  files: Files,
  logins: { instagram?: boolean; facebook?: boolean } = { instagram: true, facebook: true }
) =>
  Instagram.make(
    {
      instagram: logins.instagram === false ? Option.none() : Option.some(appFor(fake, "instagram")),
      facebook: logins.facebook === false ? Option.none() : Option.some(appFor(fake, "facebook"))
    },
    files.blobs
  )
export const threadsOn = (fake: FakeGraph, files: Files) => Threads.make(appFor(fake, "threads"), files.blobs)

export const accountOf = (platform: Platform, connection: Connection) =>
  Harness.accountOf(platform, `acc_${platform}_${connection.profile.externalId}`, connection, {
    avatarUrl: connection.profile.avatarUrl
  })

/** An upload stored in `blobs`, as the post's media; its key ends in the file's extension, as Meta's fetches see. */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", bytes = 2048) =>
  Effect.map(
    Harness.upload(blobs, {
      type,
      mimeType: type === "image" ? "image/jpeg" : "video/mp4",
      bytes,
      fields: (n) => ({
        id: `med_meta${n}`,
        blobKey: `media/med_meta${n}/f.${type === "image" ? "jpg" : "mp4"}`,
        width: 1080,
        height: 1350,
        durationMs: type === "video" ? 8000 : null
      })
    }),
    ({ media }) => media
  )
