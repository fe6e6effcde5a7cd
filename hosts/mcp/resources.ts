import { type Effect, Exit } from "effect"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource
} from "@modelcontextprotocol/sdk/types.js"
import { listAccounts } from "../../application/usecases/accounts.ts"
import { listPosts } from "../../application/usecases/posts/query.ts"
import { type HeraldError, toEnvelope } from "../../domain/errors.ts"
import type { McpSession } from "./server.ts"
import type { McpServices } from "./tool.ts"

// What connectors show beside the tools: the workspace's accounts and its recent posts, read-only, as JSON.

const resources: ReadonlyArray<Resource> = [
  {
    uri: "herald://accounts",
    name: "accounts",
    title: "Connected accounts",
    description: "The workspace's connected social accounts and their ids (list_accounts).",
    mimeType: "application/json"
  },
  {
    uri: "herald://posts/recent",
    name: "recent-posts",
    title: "Recent posts",
    description: "The workspace's 20 newest posts with each account's status (list_posts).",
    mimeType: "application/json"
  }
]

/** resources/list and resources/read on the caller's workspace; without a key there is nothing to read. */
export const addResources = (server: Server, session: McpSession) => {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: session.context().actor === null ? [] : [...resources]
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const actor = session.context().actor
    const uri = request.params.uri
    if (actor === null) throw new McpError(ErrorCode.InvalidRequest, "Reading a resource needs authorization.")
    const read: Effect.Effect<object, HeraldError, McpServices> | undefined =
      uri === "herald://accounts"
        ? listAccounts(actor)
        : uri === "herald://posts/recent"
          ? listPosts(actor, { limit: "20" })
          : undefined
    if (read === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource: ${uri}. Resources: ${resources.map((r) => r.uri).join(", ")}`
      )
    const exit = await session.run(read)
    if (Exit.isFailure(exit)) {
      for (const reason of exit.cause.reasons)
        if (reason._tag === "Fail")
          throw new McpError(ErrorCode.InternalError, JSON.stringify(toEnvelope(reason.error).body))
      throw new McpError(ErrorCode.InternalError, "The resource could not be read.")
    }
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(exit.value, null, 2) }] }
  })
}
