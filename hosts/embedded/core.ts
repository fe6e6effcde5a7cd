import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { Config, Effect, Layer, Option, References } from "effect"
import { HeraldConfig, HttpSettings, loadConfig } from "../../application/config.ts"
import * as ReadCache from "../../application/readCache.ts"
import * as RequestLimiter from "../../application/requestLimiter.ts"
import type { BlobError, BlobStore } from "../../application/ports/BlobStore.ts"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as SharpFfmpegProbe from "../../adapters/media/SharpFfmpegProbe.ts"
import * as OutboxMailer from "../../adapters/outbox/OutboxMailer.ts"
import * as Pglite from "../../adapters/pglite/index.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as PostgresClient from "../../adapters/postgres/PostgresClient.ts"
import * as Networks from "../networks.ts"
import * as SandboxPublisher from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import * as SqlSandboxLedger from "../../adapters/networks/sandbox/SqlSandboxLedger.ts"
import * as SqlReelLedger from "../../adapters/networks/facebook/SqlReelLedger.ts"
import * as Outbound from "../../adapters/outbound/client.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import * as HttpClientDocuments from "../../adapters/webhooks/HttpClientDocuments.ts"

/**
 * The core every self-contained host runs on, chosen from the environment: PostgreSQL when
 * DATABASE_URL is set, else PGlite under $HERALD_DATA_DIR/pg (the same SQL either way, queue
 * included); S3 when S3_BUCKET is set, else local files; SMTP when SMTP_URL is set, else the
 * .eml outbox. Returns the layer and what was chosen, for the start-up log. The S3 and SMTP
 * adapters (and their SDKs, ~16 MB) are loaded only when configured.
 */
/** A host's main effect without spans: no tracer is exported from Herald's processes, so building a span for every request, job and statement is waste (0.18 -> 0.15 ms of server CPU a create). */
export const withoutTracing = <A, E, R>(main: Effect.Effect<A, E, R>) =>
  Effect.provideService(main, References.TracerEnabled, false)

export const embeddedCore = Effect.gen(function* () {
  // A bad setting ends the start with its one line (runMain prints a plain failure without a trace).
  const { env, config, http } = yield* Effect.mapError(loadConfig, (e) => e.message)
  const dataDir = resolve(env.dataDir)
  mkdirSync(dataDir, { recursive: true })
  // Where a pre-initialised PGlite data dir is kept for new data dirs (default: node_modules/.cache).
  const templateDir = yield* Config.option(Config.String("HERALD_PGLITE_TEMPLATE_DIR"))
  const sql = Option.match(env.databaseUrl, {
    onNone: () => Pglite.layer(join(dataDir, "pg"), { templateDir: Option.getOrUndefined(templateDir) }),
    onSome: (url) => PostgresClient.layer(url, { maxConnections: env.databasePoolSize })
  })
  const storage = Layer.mergeAll(Postgres.layer, SqlSandboxLedger.layer, SqlReelLedger.layer).pipe(
    Layer.provideMerge(Layer.effectDiscard(Postgres.migrateWith(Networks.networkMigrations))),
    Layer.provideMerge(sql)
  )
  const s3Bucket = yield* Config.option(Config.String("S3_BUCKET"))
  // Signed, expiring /files/ links, under a key derived from HERALD_SECRET like the vault's.
  const fileLinks = HmacFileLinks.layerConfig(join(dataDir, "secret"))
  const blobs: Layer.Layer<BlobStore, BlobError | Config.ConfigError> = Option.isSome(s3Bucket)
    ? (yield* Effect.promise(() => import("../../adapters/s3/S3BlobStore.ts"))).layerConfig
    : LocalFilesBlobStore.layer({ dir: join(dataDir, "media"), publicUrl: config.publicUrl }).pipe(
        Layer.provide(fileLinks)
      )
  const mailer = Option.isSome(env.smtpUrl)
    ? yield* Effect.promise(() => import("../../adapters/smtp/SmtpMailer.ts")).pipe(
        Effect.flatMap((SmtpMailer) =>
          Effect.map(
            SmtpMailer.optionsConfig,
            Option.match({ onNone: () => OutboxMailer.layer(join(dataDir, "outbox")), onSome: SmtpMailer.layer })
          )
        )
      )
    : OutboxMailer.layer(join(dataDir, "outbox"))
  const layer = Layer.mergeAll(
    NodeCrypto.layer,
    AesGcmVault.layerConfig(join(dataDir, "secret")),
    fileLinks,
    mailer,
    blobs,
    SharpFfmpegProbe.layerConfig,
    Networks.layer.pipe(Layer.provide(SandboxPublisher.layerConfig), Layer.provide(blobs)),
    Layer.succeed(HeraldConfig)(config),
    Layer.succeed(HttpSettings)(http),
    ReadCache.layer(env.readCacheMs),
    RequestLimiter.layer(config.requestLimits),
    Outbound.layer({ allowLoopback: env.allowLoopback }),
    HttpWebhookSender.layerConfig,
    HttpClientDocuments.layerConfig
  ).pipe(Layer.provideMerge(storage))
  const described = [
    `database: ${Option.isSome(env.databaseUrl) ? "DATABASE_URL" : `PGlite in ${join(dataDir, "pg")}`}`,
    `media: ${Option.isSome(s3Bucket) ? `S3 bucket ${s3Bucket.value}` : join(dataDir, "media")}`,
    `mail: ${Option.isSome(env.smtpUrl) ? "SMTP" : join(dataDir, "outbox")}`
  ].join(", ")
  return { layer, env, config, dataDir, described }
})
