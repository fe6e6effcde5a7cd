import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import { fail, type ErrorCode, toEnvelope } from "../../domain/errors.ts"
import { SECURITY_HEADERS } from "./securityHeaders.ts"

// What Node's parser refuses before a request exists, as the catalogue's codes.
const codeOf = (nodeCode: string | undefined): ErrorCode =>
  nodeCode === "HPE_HEADER_OVERFLOW"
    ? "headers_too_large"
    : nodeCode === "ERR_HTTP_REQUEST_TIMEOUT" || nodeCode === "ERR_HTTP_HEADERS_TIMEOUT"
      ? "request_timeout"
      : "malformed_request"

const reasons: Readonly<Record<number, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large"
}

/** The raw HTTP answer, with the envelope, for a client error Node's parser found. */
export const clientErrorResponse = (nodeCode: string | undefined): string => {
  const { status, body } = toEnvelope(fail(codeOf(nodeCode)))
  const json = JSON.stringify(body)
  const headers = {
    ...SECURITY_HEADERS,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(json)),
    connection: "close"
  }
  return `HTTP/1.1 ${status} ${reasons[status]}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n${json}`
}

/**
 * Node answers bad header bytes (400), oversized headers (431) and slow requests (408) itself, with
 * an empty body; this answers them with the envelope instead, then closes the connection. Nothing is
 * written once a response has started on the socket, or when the client has gone.
 */
export const answerClientErrors = <S extends Server>(server: S): S => {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) return void socket.destroy()
    socket.end(clientErrorResponse(error.code))
  })
  return server
}
