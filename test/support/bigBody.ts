import { request } from "node:http"

export interface SentBody {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: any
  /** Body bytes the client got to write before the server answered (or closed). */
  readonly sent: number
}

/**
 * POSTs `head`, then `size` bytes of `fill`, then `tail`: with Content-Length, or chunked. Stops
 * writing once the server answers, and resolves with the answer and how much of the body went out.
 */
export const sendBody = (
  url: string,
  options: {
    readonly headers?: Record<string, string>
    readonly head?: string
    readonly size: number
    readonly tail?: string
    readonly chunked?: boolean
    readonly fill?: number
  }
): Promise<SentBody> =>
  new Promise((resolve, reject) => {
    const head = Buffer.from(options.head ?? "")
    const tail = Buffer.from(options.tail ?? "")
    const total = head.length + options.size + tail.length
    const headers = {
      "content-type": "application/json",
      ...options.headers,
      ...(options.chunked ? {} : { "content-length": String(total) })
    }
    let sent = 0
    let answered = false
    const req = request(url, { method: "POST", headers, agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent })
      })
      res.on("error", reject)
    })
    req.on("response", () => (answered = true))
    // Once the server has answered, a broken pipe on the rest of the body is expected.
    req.on("error", (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(256 * 1024, options.fill ?? 0x61)
    const write = (bytes: Buffer) => {
      sent += bytes.length
      return req.write(bytes)
    }
    write(head)
    let left = options.size
    const pump = () => {
      while (left > 0 && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, left)
        left -= n
        if (!write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump)
      }
      if (!answered && !req.destroyed) {
        sent += tail.length
        req.end(tail)
      }
    }
    pump()
  })
