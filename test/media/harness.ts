import { request } from "node:http"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import { signUp } from "../../application/usecases/signup.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { serverLayer } from "../../hosts/http/server.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"
import { freePort } from "../support/freePort.ts"

/** A real listening Herald (HTTP host on the in-memory test host) and a way to reach its services. */
export interface Harness {
  readonly baseUrl: string
  readonly api: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  /** A fresh unclaimed workspace and its key. */
  readonly signup: () => Promise<{ readonly apiKey: string; readonly workspaceId: string }>
  readonly close: () => Promise<void>
}

let signups = 0

export const startHarness = async (): Promise<Harness> => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const layer = serverLayer(port).pipe(Layer.provideMerge(TestHost.layer({ publicUrl: baseUrl })))
  const scope = Effect.runSync(Scope.make())
  const context = (await Effect.runPromise(Layer.buildWithScope(layer, scope))) as Context.Context<any>
  const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
    Effect.runPromise(Effect.provideContext(effect, context) as Effect.Effect<A, E>)
  return {
    baseUrl,
    api: `${baseUrl}/api/v1`,
    run,
    signup: async () => {
      const n = ++signups
      // A distinct address per sign-up keeps the per-IP sign-up limit out of the way.
      const result = await run(
        signUp({ body: { email: `owner${n}.${Date.now()}@herald-customer.org` }, ip: `10.1.${n >> 8}.${n & 255}` })
      )
      return { apiKey: result.body.apiKey!, workspaceId: result.body.workspace!.id }
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
  readonly json: () => any
}

/**
 * A POST through node:http that writes `size` bytes produced by `fill`, with or without
 * Content-Length, and keeps the answer even when the server replies before the body is done.
 */
export const streamPost = (
  url: string,
  headers: Record<string, string>,
  parts: {
    readonly head: Uint8Array
    readonly size: number
    readonly fill: (offset: number, chunk: Buffer) => void
    readonly tail: Uint8Array
  },
  chunked: boolean
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const total = parts.head.length + parts.size + parts.tail.length
    const req = request(
      url,
      { method: "POST", headers: chunked ? headers : { ...headers, "content-length": String(total) } },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const body = Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString("utf8"))
          })
        })
      }
    )
    let answered = false
    req.on("response", () => (answered = true))
    // Once the server has answered, a broken pipe on the rest of the body is expected.
    req.on("error", (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(256 * 1024)
    let sent = 0
    req.write(parts.head)
    const pump = () => {
      while (sent < parts.size && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, parts.size - sent)
        parts.fill(sent, chunk)
        sent += n
        if (!req.write(Buffer.from(chunk.subarray(0, n)))) return void req.once("drain", pump)
      }
      if (!answered && !req.destroyed) req.end(parts.tail)
    }
    pump()
  })

export const multipartParts = (filename: string, contentType = "application/octet-stream") => {
  const boundary = `----herald${Math.random().toString(36).slice(2)}`
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`)
  }
}

/** Multipart upload through fetch (FormData), the way most clients send it. */
export const uploadMultipart = (
  h: Harness,
  apiKey: string,
  bytes: Uint8Array,
  filename: string,
  type = "application/octet-stream"
) => {
  const form = new FormData()
  form.append("file", new Blob([bytes], { type }), filename)
  return fetch(`${h.api}/media`, { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: form })
}

export const uploadJson = (h: Harness, apiKey: string, body: unknown) =>
  fetch(`${h.api}/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** A response's JSON body, loosely typed for assertions. */
export const readJson = async (res: Response): Promise<any> => res.json()

/** Connects a sandbox account through its connect URL, as a browser would; gives its id. */
export const connectSandboxAccount = async (h: Harness, apiKey: string): Promise<string> => {
  const { url } = await readJson(
    await fetch(`${h.api}/connect/sandbox`, { headers: { authorization: `Bearer ${apiKey}` } })
  )
  const { next, cookie } = await continueConnectLink(url)
  return (await readJson(await fetch(next, { headers: { accept: "application/json", cookie } }))).account.id
}

export const postJson = (h: Harness, apiKey: string, body: unknown) =>
  fetch(`${h.api}/posts`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
