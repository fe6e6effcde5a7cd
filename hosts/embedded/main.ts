import { join, resolve } from "node:path"
import { Effect, Layer, Option } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { HeraldConfig, loadConfig } from "../../application/config.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import { storageLayer } from "../../adapters/memory/index.ts"
import * as OutboxMailer from "../../adapters/outbox/OutboxMailer.ts"
import { connectorsLayer, publishersLayer } from "../../adapters/sandbox/registries.ts"
import * as SandboxPublisher from "../../adapters/sandbox/SandboxPublisher.ts"
import { serverLayer } from "../http/server.ts"

/** `npm start`: the HTTP host with embedded defaults (no external server needed). */
const main = Effect.gen(function* () {
  const { env, config } = yield* loadConfig
  const dataDir = resolve(env.dataDir)
  const core = Layer.mergeAll(
    storageLayer,
    NodeCrypto.layer,
    OutboxMailer.layer(join(dataDir, "outbox")),
    connectorsLayer,
    publishersLayer.pipe(Layer.provide(SandboxPublisher.layerRecording)),
    Layer.succeed(HeraldConfig)(config)
  )
  yield* Effect.logInfo(`Herald on ${config.publicUrl} (data: ${dataDir}, storage: memory${Option.isSome(env.databaseUrl) ? ", DATABASE_URL ignored for now" : ""})`)
  return yield* Layer.launch(serverLayer(env.port).pipe(Layer.provide(core)))
})

NodeRuntime.runMain(main)
