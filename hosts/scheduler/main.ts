import { Cause, Effect, Exit, Layer, Option, Runtime } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { embeddedCore, withoutTracing } from "../embedded/core.ts"
import { schedulerConfig, toSchedulerOptions } from "./config.ts"
import { schedulerLayer } from "./layer.ts"

/**
 * `npm run scheduler`: the publishing worker and the sweepers alone, on the PostgreSQL server named
 * by DATABASE_URL, with the same storage, blobs and networks as the other hosts. Run as many as you
 * like against one database; the queue keeps them apart. SIGTERM stops leasing, lets jobs in flight
 * finish (HERALD_SHUTDOWN_GRACE_MS) and hands the rest back.
 */
const main = Effect.gen(function* () {
  const core = yield* embeddedCore
  if (Option.isNone(core.env.databaseUrl))
    // A plain failure: runMain prints the sentence and exits non-zero, without a stack trace.
    return yield* Effect.fail(
      "DATABASE_URL is required: schedulers share a PostgreSQL server with the HTTP hosts (npm start runs its own scheduler)."
    )
  const options = toSchedulerOptions(yield* schedulerConfig)
  yield* Effect.logInfo(
    `scheduler: ${options.pipeline.concurrency} jobs at once, lease ${options.pipeline.leaseMs} ms, poll ${options.pipeline.pollMs} ms, sweepers ${options.sweepers === null ? "off" : "on"}, metrics ${options.metrics === null ? "off" : "on"}; ${core.described}`
  )
  return yield* Layer.launch(schedulerLayer(options).pipe(Layer.provide(core.layer)))
}).pipe(withoutTracing)

// A stop asked for (SIGTERM, SIGINT) that drained cleanly is a normal exit for a service manager.
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) =>
    Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
})
