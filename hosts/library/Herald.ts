import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { defaultLimits, defaultRequestLimits, HeraldConfig, type HeraldConfigShape } from "../../application/config.ts"
import type { BlobError, BlobStore } from "../../application/ports/BlobStore.ts"
import type { FileLinks } from "../../application/ports/FileLinks.ts"
import type { Mailer } from "../../application/ports/Mailer.ts"
import * as ReadCache from "../../application/readCache.ts"
import * as RequestLimiter from "../../application/requestLimiter.ts"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as SharpFfmpegProbe from "../../adapters/media/SharpFfmpegProbe.ts"
import * as Memory from "../../adapters/memory/index.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import * as ReelLedger from "../../adapters/networks/facebook/reelLedger.ts"
import * as SqlReelLedger from "../../adapters/networks/facebook/SqlReelLedger.ts"
import * as SandboxPublisher from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import { makeMemoryLedger, SandboxLedger } from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import * as SqlSandboxLedger from "../../adapters/networks/sandbox/SqlSandboxLedger.ts"
import * as OutboxMailer from "../../adapters/outbox/OutboxMailer.ts"
import * as Pglite from "../../adapters/pglite/index.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as PostgresClient from "../../adapters/postgres/PostgresClient.ts"
import type * as S3BlobStore from "../../adapters/s3/S3BlobStore.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { embeddedCore } from "../embedded/core.ts"
import * as Networks from "../networks.ts"
import * as TestHost from "../test/TestHost.ts"

/** Where Herald keeps its records: a PostgreSQL server, PGlite in a directory of this machine, or memory. */
export type Database = { readonly url: string; readonly poolSize?: number } | { readonly dataDir: string } | "memory"

/** Where uploads go: files in a directory (served by the HTTP host at `/files/`), an S3 bucket, or memory. */
export type Blobs = { readonly dir: string } | { readonly s3: S3BlobStore.Options } | "memory"

/** How e-mail leaves: an SMTP server, `.eml` files in a directory, or kept in memory (read through `SentMail`). */
export type Mail = { readonly smtp: string; readonly from?: string } | { readonly outbox: string } | "memory"

export interface Options {
  readonly database: Database
  readonly blobs: Blobs
  readonly mail: Mail
  /** The networks' settings, named as their environment variables (`X_CLIENT_ID`, ...); default: the process's environment. */
  readonly networks?: Readonly<Record<string, string>>
  /** Seals network tokens and signs file links: keep it, and give every process on one database the same. */
  readonly secret: string
  /** The absolute base of links in e-mails, connect URLs and media URLs. */
  readonly publicUrl: string
  /** Outgoing webhooks; loopback receivers only with `allowLoopback` (development). */
  readonly webhooks?: Partial<HttpWebhookSender.SenderOptions>
  /** The rest of the core's settings (key prefix, sign-up limits, ...); defaults as in the README. */
  readonly config?: Partial<Omit<HeraldConfigShape, "publicUrl">>
}

const sqlStorage = (database: Exclude<Database, "memory">) => {
  const sql =
    "url" in database
      ? PostgresClient.layer(Redacted.make(database.url), { maxConnections: database.poolSize ?? 10 })
      : Pglite.layer(database.dataDir)
  return Layer.mergeAll(Postgres.layer, SqlSandboxLedger.layer, SqlReelLedger.layer).pipe(
    Layer.provideMerge(Layer.effectDiscard(Postgres.migrateWith(Networks.networkMigrations))),
    Layer.provideMerge(sql)
  )
}

/** Every storage port, and the ledgers of the networks that keep one (the sandbox's, Facebook reels'). */
const storage = (
  database: Database
): Layer.Layer<
  Layer.Success<typeof Memory.layer> | SandboxLedger | ReelLedger.ReelLedger,
  Layer.Error<ReturnType<typeof sqlStorage>>
> =>
  database === "memory"
    ? Layer.mergeAll(Memory.layer, Layer.sync(SandboxLedger)(makeMemoryLedger), ReelLedger.layerTest)
    : sqlStorage(database)

const blobsLayer = (blobs: Blobs, publicUrl: string): Layer.Layer<BlobStore, BlobError, FileLinks> =>
  blobs === "memory"
    ? MemoryBlobStore.layer(publicUrl)
    : "dir" in blobs
      ? LocalFilesBlobStore.layer({ dir: blobs.dir, publicUrl })
      : // The S3 SDK (~16 MB) loads only for an embedder that asks for S3.
        Layer.unwrap(
          Effect.promise(() => import("../../adapters/s3/S3BlobStore.ts")).pipe(Effect.map((S3) => S3.layer(blobs.s3)))
        )

const mailLayer = (mail: Mail): Layer.Layer<Mailer> =>
  mail === "memory"
    ? RecordingMailer.layer
    : "outbox" in mail
      ? OutboxMailer.layer(mail.outbox)
      : Layer.unwrap(
          Effect.promise(() => import("../../adapters/smtp/SmtpMailer.ts")).pipe(
            Effect.map((Smtp) =>
              Smtp.layer({ url: Redacted.make(mail.smtp), from: mail.from ?? "Herald <no-reply@herald.local>" })
            )
          )
        )

/**
 * Herald's core in one call: every port the use cases need, on the storage, blobs and mail named.
 * Provide it to a program of use cases (`signUp`, `createPost`, ...), or to `HttpHost.serverLayer`
 * and `Scheduler.schedulerLayer` to serve the API and publish.
 */
export const layer = (options: Options) => {
  const config: HeraldConfigShape = {
    keyPrefix: "hrld",
    signupEnabled: true,
    limits: defaultLimits,
    requestLimits: defaultRequestLimits,
    ...options.config,
    publicUrl: options.publicUrl
  }
  const fileLinks = HmacFileLinks.layer(options.secret)
  const blobs = blobsLayer(options.blobs, config.publicUrl).pipe(Layer.provide(fileLinks))
  const networks = Networks.layer.pipe(
    Layer.provide(
      ConfigProvider.layer(
        ConfigProvider.fromEnv(options.networks === undefined ? {} : { env: { ...options.networks } })
      )
    ),
    Layer.provide(SandboxPublisher.layerConfig),
    Layer.provide(blobs)
  )
  return Layer.mergeAll(
    NodeCrypto.layer,
    AesGcmVault.layer(options.secret),
    fileLinks,
    mailLayer(options.mail),
    blobs,
    SharpFfmpegProbe.layer(),
    networks,
    Layer.succeed(HeraldConfig)(config),
    ReadCache.layer(5000),
    RequestLimiter.layer(config.requestLimits),
    HttpWebhookSender.layer(options.webhooks)
  ).pipe(Layer.provideMerge(storage(options.database)))
}

/** The core `npm start` runs, chosen from the environment (`DATABASE_URL`, `S3_BUCKET`, `SMTP_URL`, ...; see the README). */
export const layerConfig = Layer.unwrap(Effect.map(embeddedCore, (core) => core.layer))

/** The in-memory core of the test suite: memory storage, recorded mail (`SentMail`), the sandbox network. */
export const layerTest = TestHost.layer
