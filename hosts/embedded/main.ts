import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { Effect, Layer, Option } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { HeraldConfig, loadConfig } from "../../application/config.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as MemoryJobQueue from "../../adapters/memory/MemoryJobQueue.ts"
import * as MemoryState from "../../adapters/memory/MemoryState.ts"
import * as Pglite from "../../adapters/pglite/index.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as OutboxMailer from "../../adapters/outbox/OutboxMailer.ts"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as SharpFfmpegProbe from "../../adapters/media/SharpFfmpegProbe.ts"
import { connectorsLayer, publishersLayer } from "../../adapters/sandbox/registries.ts"
import * as SandboxPublisher from "../../adapters/sandbox/SandboxPublisher.ts"
import { serverLayer } from "../http/server.ts"

/** `npm start`: the HTTP host with embedded defaults (no external server needed). */
const main = Effect.gen(function* () {
  const { env, config } = yield* loadConfig
  const dataDir = resolve(env.dataDir)
  mkdirSync(dataDir, { recursive: true })
  // DATABASE_URL names a PostgreSQL server; without it PGlite keeps the data under $HERALD_DATA_DIR/pg.
  const sql = Option.match(env.databaseUrl, {
    onNone: () => Pglite.layer(join(dataDir, "pg")),
    onSome: (url) => Postgres.layerFromUrl(url)
  })
  const storage = Layer.effectDiscard(Postgres.migrate).pipe(Layer.provideMerge(Postgres.storageLayer), Layer.provide(sql))
  const core = Layer.mergeAll(
    storage,
    // The publish queue is still in memory here (the Postgres queue comes with the scheduler).
    MemoryJobQueue.layer.pipe(Layer.provide(MemoryState.layer)),
    NodeCrypto.layer,
    OutboxMailer.layer(join(dataDir, "outbox")),
    LocalFilesBlobStore.layer({ dir: join(dataDir, "media"), publicUrl: config.publicUrl }),
    SharpFfmpegProbe.layerConfig,
    connectorsLayer,
    publishersLayer.pipe(Layer.provide(SandboxPublisher.layerRecording)),
    Layer.succeed(HeraldConfig)(config)
  )
  yield* Effect.logInfo(`Herald on ${config.publicUrl} (data: ${dataDir}, database: ${Option.isSome(env.databaseUrl) ? "DATABASE_URL" : "embedded PGlite"})`)
  return yield* Layer.launch(serverLayer(env.port).pipe(Layer.provide(core)))
})

NodeRuntime.runMain(main)
