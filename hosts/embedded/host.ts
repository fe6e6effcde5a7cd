import { Effect, Layer, Option } from "effect"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as OperatorSocket from "../cli/operatorSocket.ts"
import { serverLayer } from "../http/server.ts"
import { schedulerConfig, toSchedulerOptions } from "../scheduler/config.ts"
import { schedulerLayer } from "../scheduler/layer.ts"
import { embeddedCore, withoutTracing } from "./core.ts"

/**
 * `npm start`: the HTTP host and the scheduler in one process, on embedded defaults (no external
 * server needed). On PGlite it also runs `npm run herald` commands for the CLI, which cannot open
 * the database this process holds.
 */
const main = Effect.gen(function* () {
  const core = yield* embeddedCore
  yield* Effect.logInfo(`Herald on ${core.config.publicUrl} (${core.described})`)
  const operator = Option.isNone(core.env.databaseUrl) ? OperatorSocket.layer(core.dataDir) : Layer.empty
  return yield* Layer.launch(
    Layer.mergeAll(
      serverLayer(core.env.port, { accessLog: core.env.accessLog }),
      schedulerLayer(toSchedulerOptions(yield* schedulerConfig)),
      operator
    ).pipe(Layer.provide(core.layer))
  )
}).pipe(withoutTracing)

NodeRuntime.runMain(main)
