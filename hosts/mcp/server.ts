import { Effect, Exit, Result, Schema } from "effect"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import type { Actor } from "../../domain/apiKey.ts"
import { decoderFor, requestParseOptions } from "../../domain/contract/issues.ts"
import { fail, type HeraldError } from "../../domain/errors.ts"
import { instructions } from "./instructions.ts"
import { addResources } from "./resources.ts"
import { type AnyTool, type CallContext, failure, type Runner, success, type ToolInput } from "./tool.ts"
import { toolsFor } from "./tools/index.ts"

export interface McpSession {
  readonly run: Runner
  /** Read on every call: over stdio the actor changes when sign_up hands out a key. */
  readonly context: () => CallContext
  /** Called after a successful sign_up with the new key (stdio adopts it; HTTP ignores it). */
  readonly onSignedUp?: (apiKey: string) => Promise<void>
}

/**
 * Effect's JSON Schema of a tool's schema: arguments refuse unknown fields (as decoding does), results
 * stay open to fields added later. MCP wants an object at the top, also for a union of answers.
 */
const toJsonSchema = (schema: Schema.Top, io: "input" | "output") => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: io === "input" ? "error" : "ignore" })
  const definitions = Object.keys(document.definitions).length > 0 ? { $defs: document.definitions } : {}
  return { type: "object", ...document.schema, ...definitions } as Tool["inputSchema"]
}

const decoders = new WeakMap<ToolInput, (args: unknown) => Result.Result<object, HeraldError>>()
/** A tool's arguments decoded by its schema; malformed ones as validation_failed naming each field. */
const decodeArguments = (input: ToolInput, args: unknown): Result.Result<object, HeraldError> => {
  let decode = decoders.get(input)
  if (decode === undefined)
    decoders.set(
      input,
      (decode = decoderFor(input, requestParseOptions, {
        whole: "arguments",
        detail: (notes) => `Invalid arguments. ${notes}.`
      }))
    )
  return decode(args)
}

/**
 * The tool list as MCP shows it. Over HTTP a caller without a key sees every tool (connectors list them
 * before the person connects; calling one answers 401 and its client starts OAuth); over stdio, only the key-less ones.
 */
export const listTools = (
  tools: ReadonlyArray<AnyTool>,
  actor: Actor | null,
  transport: "http" | "stdio"
): Array<Tool> =>
  tools
    .filter((t) => actor !== null || t.keyless === true || transport === "http")
    .map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: toJsonSchema(t.input, "input"),
      outputSchema: toJsonSchema(t.output, "output"),
      ...(t.annotations ? { annotations: { title: t.title, ...t.annotations } } : {})
    }))

/** Runs one tool call to a result; every failure, defects included, becomes a tool error. */
export const callTool = async (
  tools: ReadonlyArray<AnyTool>,
  session: McpSession,
  name: string,
  args: unknown
): Promise<CallToolResult> => {
  const tool = tools.find((t) => t.name === name)
  if (tool === undefined)
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Tools: ${tools.map((t) => t.name).join(", ")}`)
  const call = session.context()
  if (call.actor === null && tool.keyless !== true)
    return failure(
      fail(
        "unauthorized",
        { tool: name },
        `${name} needs an API key. Get one with sign_up (or from the workspace owner), then ${call.transport === "http" ? "send Authorization: Bearer <key>" : "set HERALD_API_KEY"}.`
      )
    )
  const parsed = decodeArguments(tool.input, args ?? {})
  if (Result.isFailure(parsed)) return failure(parsed.failure)
  const exit = await session.run(tool.run(parsed.success, call as CallContext & { actor: Actor }))
  if (Exit.isSuccess(exit)) {
    const value = exit.value
    const apiKey = (value as { apiKey?: unknown }).apiKey
    if (tool.keyless === true && typeof apiKey === "string" && session.onSignedUp) await session.onSignedUp(apiKey)
    return tool.render ? tool.render(value) : success(value)
  }
  for (const reason of exit.cause.reasons) if (reason._tag === "Fail") return failure(reason.error)
  // A defect: log it with a request id and show only the id, never internals.
  const requestId = `req_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  await session.run(Effect.logError("MCP tool defect", { requestId, tool: name }, exit.cause))
  return failure(fail("internal_error", { requestId }))
}

/** One MCP server over the tools for this transport; cheap enough to build per HTTP request. */
export const makeServer = (session: McpSession): Server => {
  const tools = toolsFor(session.context().transport)
  // The low-level Server, not McpServer: McpServer answers bad arguments with plain text, and
  // Herald answers them with the error envelope like every other error.
  const server = new Server(
    { name: "herald", title: "Herald", version: "0.1.0" },
    {
      capabilities: { tools: { listChanged: session.context().transport === "stdio" }, resources: {} },
      instructions
    }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: listTools(tools, session.context().actor, session.context().transport)
  }))
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(tools, session, request.params.name, request.params.arguments)
  )
  addResources(server, session)
  return server
}
