import { Effect, Layer } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { embeddedCore, withoutTracing } from "../embedded/core.ts"
import { serverLayer } from "./server.ts"

/**
 * `npm run http`: the HTTP host alone, for running several behind a load balancer next to
 * `npm run scheduler` processes on one DATABASE_URL. Without DATABASE_URL it uses PGlite like `npm start`.
 */
const main = Effect.gen(function* () {
  const core = yield* embeddedCore
  yield* Effect.logInfo(`Herald HTTP on ${core.config.publicUrl} (${core.described}); no scheduler in this process`)
  return yield* Layer.launch(
    serverLayer(core.env.port, { accessLog: core.env.accessLog }).pipe(Layer.provide(core.layer))
  )
}).pipe(withoutTracing)

NodeRuntime.runMain(main)
