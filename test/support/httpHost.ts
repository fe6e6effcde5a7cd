import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import {
  defaultHttpSettings,
  defaultLimits,
  type HeraldConfigShape,
  HttpSettings,
  type HttpSettingsShape
} from "../../application/config.ts"
import { type NodeServerOptions, nodeServerLayer, routesLayer } from "../../hosts/http/server.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import { contractOf } from "./contract.ts"
import { testDatabase } from "./postgres.ts"

/** A real listening HTTP host on a free port, on the in-memory core. */
const roomyLimits = {
  ...defaultLimits,
  signupPerIpPerHour: 10_000,
  signupPerEmailPerDay: 100,
  claimLinksPerWorkspacePerHour: 100,
  signinLinksPerEmailPerHour: 100,
  signupsPerDay: 10_000
}

export const startHttpHost = async (
  overrides: Partial<HeraldConfigShape> = {},
  serverOptions: Omit<NodeServerOptions, "port" | "host"> & { readonly port?: number } = {},
  http: Partial<HttpSettingsShape> = {}
) => {
  // Every test request comes from 127.0.0.1: roomy limits unless a test sets its own.
  const config = { limits: roomyLimits, ...overrides }
  // HERALD_TEST_BACKEND=postgres runs the same HTTP suites on the Postgres adapters, a database per host.
  const core =
    process.env.HERALD_TEST_BACKEND === "postgres"
      ? TestHost.layer(config, Postgres.layer.pipe(Layer.provide(testDatabase())))
      : TestHost.layer(config)
  const server = HttpRouter.serve(routesLayer, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(nodeServerLayer({ ...serverOptions, port: serverOptions.port ?? 0, host: "127.0.0.1" })),
    Layer.provideMerge(core),
    Layer.provideMerge(Layer.succeed(HttpSettings)({ ...defaultHttpSettings, ...http }))
  )
  const runtime = ManagedRuntime.make(server)
  const origin = await runtime.runPromise(
    Effect.map(HttpServer.HttpServer, (s) => HttpServer.formatAddress(s.address).replace(/\/$/, ""))
  )
  return {
    origin,
    base: `${origin}/api/v1`,
    run: <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof core>>) => runtime.runPromise(effect),
    /** Links in mail and connect URLs name the configured public URL; point them at this server. */
    local: (url: string) => url.replace(/^https?:\/\/[^/]+/, origin),
    close: () => runtime.dispose()
  }
}

export type HttpHost = Awaited<ReturnType<typeof startHttpHost>>

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export const call = async (
  host: HttpHost,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string>; cookie?: string } = {}
): Promise<Reply> => {
  const headers: Record<string, string> = { ...(options.headers ?? {}) }
  if (options.key) headers.authorization = `Bearer ${options.key}`
  if (options.cookie) headers.cookie = options.cookie
  if (options.body !== undefined || options.raw !== undefined) headers["content-type"] ??= "application/json"
  const response = await fetch(`${host.base}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    redirect: "manual"
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* not JSON */
  }
  // Every answer is checked against the served OpenAPI document (contract.ts).
  ;(await contractOf(host.origin)).check(
    method,
    `${host.base}${path}`,
    response.status,
    response.headers.get("content-type"),
    body
  )
  return { status: response.status, headers: response.headers, body }
}
