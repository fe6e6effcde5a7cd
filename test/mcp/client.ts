import { expect } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type { HttpHost } from "../support/httpHost.ts"

/** The SDK's own client over Streamable HTTP, with the key as a Bearer header when given. */
export const connect = async (host: HttpHost, key?: string) => {
  const client = new Client({ name: "herald-test", version: "1.0.0" })
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${host.origin}/mcp`), { requestInit: { headers } }))
  // Listing caches the output schemas, so every later call is checked against them by the client.
  await client.listTools()
  return client
}

/** Calls a tool and returns its structured result; fails the test on a tool error. */
export const ok = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent)
  return result.structuredContent
}

/** Calls a tool that must fail and returns the envelope's `error`. */
export const toolError = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  const envelope = JSON.parse((result.content[0] as { text: string }).text)
  expect(Object.keys(envelope.error)).toEqual(expect.arrayContaining(["code", "message", "hint", "retryable"]))
  return envelope.error
}
