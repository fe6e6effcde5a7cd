import { createServer, type Server } from "node:http"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { HttpRouter } from "effect/http"
import * as Bluesky from "../../../adapters/networks/bluesky/adapter.ts"
import type { BlueskyOptions } from "../../../adapters/networks/bluesky/config.ts"
import * as Sandbox from "../../../adapters/networks/sandbox/index.ts"
import { BlobStore } from "../../../application/ports/BlobStore.ts"
import { defaultLimits, type HeraldConfigShape } from "../../../application/config.ts"
import { SentMail } from "../../../adapters/memory/RecordingMailer.ts"
import { authenticateKey, authenticateSession } from "../../../application/usecases/auth.ts"
import { claimWorkspace } from "../../../application/usecases/claim.ts"
import { createKey } from "../../../application/usecases/keys.ts"
import { signUp } from "../../../application/usecases/signup.ts"
import { defaultPipelineOptions, type PipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { nodeServerLayer, routesLayer } from "../../../hosts/http/server.ts"
import { enable, networksLayer } from "../../../hosts/networks.ts"
import * as TestHost from "../../../hosts/test/TestHost.ts"
import { freePort } from "../../support/freePort.ts"

/** One XRPC call as the adapter made it. */
export interface SeenCall {
  /** The XRPC method, e.g. com.atproto.repo.createRecord. */
  readonly method: string
  /** Which server was asked (host:port). */
  readonly host: string
  readonly status: number
  readonly authorization: string | null
}

/**
 * The fetch the Bluesky adapter is given: the real one (to the real PDS), recording each call, and
 * answering in place of the PDS where a test scripted it (a 429 with its reset, an answer lost).
 */
export const watchedFetch = () => {
  const calls: Array<SeenCall> = []
  type Handler = (forward: () => Promise<Response>, signal: AbortSignal | null | undefined) => Promise<Response>
  const scripted: Array<{ readonly method: string; readonly handler: Handler }> = []
  const fetchImpl: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = url.pathname.replace(/^\/xrpc\//, "")
    const authorization = new Headers(init?.headers).get("authorization")
    const index = scripted.findIndex((s) => s.method === method)
    const forward = () => globalThis.fetch(input, init)
    const response = index >= 0 ? await scripted.splice(index, 1)[0]!.handler(forward, init?.signal) : await forward()
    calls.push({ method, host: url.host, status: response.status, authorization })
    return response
  }
  return {
    fetch: fetchImpl,
    calls,
    /** The next call to `method` gets this answer instead of reaching the PDS. */
    script: (method: string, answer: () => Response) => void scripted.push({ method, handler: async () => answer() }),
    /** The next call to `method` reaches the PDS, but its answer never comes back (until the caller gives up). */
    loseAnswer: (method: string) => {
      let delivered!: () => void
      const done = new Promise<void>((resolve) => (delivered = resolve))
      scripted.push({
        method,
        handler: async (forward, signal) => {
          await forward()
          delivered()
          return new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)))
        }
      })
      return done
    },
    count: (method: string) => calls.filter((c) => c.method === method).length
  }
}

/** The in-memory test host with the Bluesky network on `options` (besides the sandbox). */
export const blueskyCore = (options: BlueskyOptions, overrides: Partial<HeraldConfigShape> = {}) =>
  networksLayer([
    enable(Sandbox.network),
    Effect.map(BlobStore, (blobs) => Option.some(Bluesky.makeNetwork(options, blobs)))
  ]).pipe(Layer.provideMerge(TestHost.layer(overrides)))

/** Short, round numbers (as the scheduler tests use). */
export const pipelineOptions: PipelineOptions = {
  ...defaultPipelineOptions,
  leaseMs: 60_000,
  pollMs: 1_000,
  publishTimeoutMs: 30_000,
  firstCommentDelayMs: 10_000
}

/** A real listening Herald (HTTP host) on the in-memory core with Bluesky, its public URL its own address. */
export const startBlueskyHost = async (options: BlueskyOptions) => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const core = blueskyCore(options, {
    publicUrl: origin,
    limits: {
      ...defaultLimits,
      signupPerIpPerHour: 1000,
      signupPerEmailPerDay: 100,
      claimLinksPerWorkspacePerHour: 100,
      signinLinksPerEmailPerHour: 100,
      signupsPerDay: 1000
    }
  })
  const server = HttpRouter.serve(routesLayer, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(nodeServerLayer({ port, host: "127.0.0.1" })),
    Layer.provideMerge(core)
  )
  const runtime = ManagedRuntime.make(server)
  await runtime.runPromise(Effect.void)
  return {
    origin,
    base: `${origin}/api/v1`,
    run: <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof core>>) => runtime.runPromise(effect),
    close: () => runtime.dispose()
  }
}

/** A web page with OpenGraph tags and its picture, on a local node:http server (for link cards). */
export const startPage = async (html: (origin: string) => string, image: Uint8Array) => {
  const server: Server = createServer((req, res) => {
    if (req.url === "/card.png") return res.writeHead(200, { "content-type": "image/png" }).end(image)
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(origin))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let workspaces = 0

/** A claimed workspace: its owner signed in, and a key (its text too) that posts without approval. */
export const workspace = Effect.gen(function* () {
  const n = ++workspaces
  const email = `owner${n}.${Date.now().toString(36)}@herald-customer.org`
  yield* signUp({ body: { email, agentName: "Agent" }, ip: `10.2.${n >> 8}.${n & 255}` })
  const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last(email)!.text)![1]!
  const { session } = yield* claimWorkspace(token, null)
  const { actor: person } = yield* authenticateSession(session.token)
  const { apiKey } = yield* createKey(person, { name: "bot", requireApproval: false })
  return { person, agent: yield* authenticateKey(apiKey), apiKey }
})
