import { Effect, Exit, Layer, Logger } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { authenticateKey } from "../../application/usecases/auth.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { serverLayer } from "../http/server.ts"
import { embeddedCore, withoutTracing } from "../embedded/core.ts"
import { schedulerConfig, toSchedulerOptions } from "../scheduler/config.ts"
import { schedulerLayer } from "../scheduler/layer.ts"
import { makeServer, type McpSession } from "./server.ts"
import type { McpServices } from "./tool.ts"

class BadApiKey {
  readonly _tag = "BadApiKey"
  readonly message =
    "HERALD_API_KEY is not a valid Herald API key (wrong, revoked, or its unclaimed workspace expired). Unset it to start with sign_up only."
}

/**
 * MCP over this process's stdin/stdout on the given services, until stdin closes. The key comes from
 * HERALD_API_KEY; without one only sign_up is offered, and the key sign_up returns is used for the
 * rest of the session (the client is told the tool list changed).
 */
export const serveStdio = (apiKey: string | undefined) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<McpServices>()
    const run = Effect.runPromiseExitWith(services)
    let actor: Actor | null =
      apiKey === undefined || apiKey === ""
        ? null
        : yield* Effect.mapError(authenticateKey(apiKey), () => new BadApiKey())
    const session: McpSession = {
      run,
      context: () => ({ actor, transport: "stdio", ip: "stdio", acceptLanguage: undefined }),
      onSignedUp: async (key) => {
        if (actor !== null) return
        const exit = await run(authenticateKey(key))
        if (Exit.isSuccess(exit)) {
          actor = exit.value
          await server.sendToolListChanged()
        }
      }
    }
    const server = makeServer(session)
    yield* Effect.acquireRelease(
      Effect.promise(() => server.connect(new StdioServerTransport())),
      () => Effect.promise(() => server.close())
    )
    yield* Effect.logInfo(
      actor === null
        ? "MCP on stdio without a key: only sign_up until it returns one"
        : `MCP on stdio as key "${actor.name}"`
    )
    yield* Effect.callback<void>((resume) => {
      process.stdin.once("end", () => resume(Effect.void))
      process.stdin.once("close", () => resume(Effect.void))
    })
  })

/**
 * `npm run mcp:stdio`: a whole embedded Herald (HTTP on $PORT for the connect, claim and approval
 * links, the publishing worker and sweepers) with MCP on stdio, on the embedded host's core.
 */
const main = Effect.gen(function* () {
  const { layer: core, env, config, described } = yield* embeddedCore
  const hosts = Layer.mergeAll(
    serverLayer(env.port, { accessLog: env.accessLog }),
    schedulerLayer(toSchedulerOptions(yield* schedulerConfig))
  ).pipe(Layer.provideMerge(core))
  yield* Effect.scoped(
    Effect.gen(function* () {
      const services = yield* Layer.build(hosts)
      yield* Effect.logInfo(`Herald MCP on stdio; links and the app on ${config.publicUrl} (${described})`)
      yield* serveStdio(process.env.HERALD_API_KEY).pipe(Effect.provideContext(services))
    })
  )
})

// stdout carries MCP messages only: every log line goes to stderr.
console.log = console.error
NodeRuntime.runMain(main.pipe(Effect.provideService(Logger.LogToStderr, true), withoutTracing))
