import { Effect, Layer } from "effect"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { serverLayer } from "../http/server.ts"
import { schedulerConfig, toSchedulerOptions } from "../scheduler/config.ts"
import { schedulerLayer } from "../scheduler/layer.ts"
import { embeddedCore } from "./core.ts"

/** `npm start`: the HTTP host and the scheduler in one process, on embedded defaults (no external server needed). */
const main = Effect.gen(function* () {
  const core = yield* embeddedCore
  yield* Effect.logInfo(`Herald on ${core.config.publicUrl} (${core.described})`)
  return yield* Layer.launch(Layer.mergeAll(serverLayer(core.env.port, { accessLog: core.env.accessLog }), schedulerLayer(toSchedulerOptions(yield* schedulerConfig))).pipe(Layer.provide(core.layer)))
})

NodeRuntime.runMain(main)
