import { Cause, Effect, Exit, Layer, Option, References, Runtime } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { HeraldConfig, loadConfig } from "../../application/config.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as PostgresJobQueue from "../../adapters/postgres/PostgresJobQueue.ts"
import { publishersLayer } from "../../adapters/sandbox/registries.ts"
import * as SandboxPublisher from "../../adapters/sandbox/SandboxPublisher.ts"
import * as SqlSandboxLedger from "../../adapters/sandbox/SqlSandboxLedger.ts"
import { schedulerConfig, toSchedulerOptions } from "./config.ts"
import { schedulerLayer } from "./layer.ts"

/**
 * `npm run scheduler`: the publishing worker and the sweepers alone, on the PostgreSQL server named
 * by DATABASE_URL. Run as many as you like against one database; the queue keeps them apart.
 * SIGTERM stops leasing, lets jobs in flight finish (HERALD_SHUTDOWN_GRACE_MS), hands back the rest.
 */
const main = Effect.gen(function* () {
  const { env, config } = yield* loadConfig
  const tuning = yield* schedulerConfig
  if (Option.isNone(env.databaseUrl)) return yield* Effect.die(new Error("DATABASE_URL is required: the scheduler works on a PostgreSQL server shared with the HTTP hosts."))
  const sql = Postgres.layerFromUrl(env.databaseUrl.value, { maxConnections: tuning.maxConnections })
  const storage = Layer.mergeAll(Postgres.storageLayer, PostgresJobQueue.layer).pipe(
    Layer.provideMerge(Layer.effectDiscard(Postgres.migrate)),
    Layer.provide(sql)
  )
  const core = Layer.mergeAll(
    storage,
    NodeCrypto.layer,
    publishersLayer.pipe(Layer.provide(SandboxPublisher.layerWith({ latencyMs: tuning.sandboxLatencyMs })), Layer.provide(SqlSandboxLedger.layer), Layer.provide(sql)),
    Layer.succeed(HeraldConfig)(config)
  )
  const options = toSchedulerOptions(tuning)
  yield* Effect.logInfo(`scheduler: ${options.pipeline.concurrency} jobs at once, lease ${options.pipeline.leaseMs} ms, poll ${options.pipeline.pollMs} ms, sweepers ${options.sweepers === null ? "off" : "on"}`)
  return yield* Layer.launch(schedulerLayer(options).pipe(Layer.provide(core)))
}).pipe(
  // No tracer is exported from this process: skip building a span for every job and statement.
  Effect.provideService(References.TracerEnabled, false)
)

// A stop asked for (SIGTERM, SIGINT) that drained cleanly is a normal exit for a service manager.
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) => (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit))
})
