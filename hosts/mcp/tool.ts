import type { Effect, Exit, Schema } from "effect"
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js"
import type { Actor } from "../../domain/apiKey.ts"
import { type HeraldError, toEnvelope } from "../../domain/errors.ts"
import type { disconnectAccount, listAccounts } from "../../application/usecases/accounts.ts"
import type { connectUrl } from "../../application/usecases/connectLink.ts"
import type { requestClaimLink } from "../../application/usecases/claim.ts"
import type { authenticateKey } from "../../application/usecases/auth.ts"
import type { authenticateAccessToken } from "../../application/usecases/oauth/tokens.ts"
import type { signUp } from "../../application/usecases/signup.ts"
import type * as Actions from "../../application/usecases/posts/actions.ts"
import type { createPost } from "../../application/usecases/posts/create.ts"
import type { getPost, listPosts } from "../../application/usecases/posts/query.ts"
import type { updatePost } from "../../application/usecases/posts/update.ts"
import type { takeDownTarget } from "../../application/usecases/posts/takedown.ts"
import type { getPreview, uploadMedia } from "../../application/usecases/media/index.ts"
import type { listEvents, waitForPost } from "../../application/usecases/webhooks/feed.ts"
import type * as Webhooks from "../../application/usecases/webhooks/manage.ts"
import type { getMedia } from "../../application/usecases/media/read.ts"
import type { offeredNetworks } from "../../application/usecases/accounts.ts"
import type { createBatch } from "../../application/usecases/planning/batch.ts"
import type { listQueue, reorderQueue } from "../../application/usecases/planning/queue.ts"
import type { getSchedules, putSchedules, setQueuePaused } from "../../application/usecases/planning/schedules.ts"

type ServicesOf<F extends (...args: any) => Effect.Effect<any, any, any>> = Effect.Services<ReturnType<F>>

/** Every application service an MCP tool may need: the union of its use cases' requirements. */
export type McpServices =
  | ServicesOf<typeof signUp>
  | ServicesOf<typeof authenticateKey>
  | ServicesOf<typeof authenticateAccessToken>
  | ServicesOf<typeof requestClaimLink>
  | ServicesOf<typeof listAccounts>
  | ServicesOf<typeof connectUrl>
  | ServicesOf<typeof disconnectAccount>
  | ServicesOf<typeof createPost>
  | ServicesOf<typeof listPosts>
  | ServicesOf<typeof getPost>
  | ServicesOf<typeof Actions.cancelPost>
  | ServicesOf<typeof Actions.rejectPost>
  | ServicesOf<typeof Actions.reschedulePost>
  | ServicesOf<typeof updatePost>
  | ServicesOf<typeof takeDownTarget>
  | ServicesOf<typeof uploadMedia>
  | ServicesOf<typeof getPreview>
  | ServicesOf<typeof waitForPost>
  | ServicesOf<typeof createBatch>
  | ServicesOf<typeof getSchedules>
  | ServicesOf<typeof putSchedules>
  | ServicesOf<typeof setQueuePaused>
  | ServicesOf<typeof listQueue>
  | ServicesOf<typeof reorderQueue>
  | ServicesOf<typeof listEvents>
  | ServicesOf<typeof Webhooks.createWebhook>
  | ServicesOf<typeof Webhooks.updateWebhook>
  | ServicesOf<typeof Webhooks.deleteWebhook>
  | ServicesOf<typeof Webhooks.testWebhook>
  | ServicesOf<typeof Webhooks.listDeliveries>
  | ServicesOf<typeof Webhooks.redeliver>
  | ServicesOf<typeof getMedia>
  | ServicesOf<typeof offeredNetworks>

/** Runs a use case on the host's services; the host decides how (HTTP request fiber, stdio process). */
export type Runner = <A>(effect: Effect.Effect<A, HeraldError, McpServices>) => Promise<Exit.Exit<A, HeraldError>>

/** Who calls and how: the transport fills it per request (HTTP) or per process (stdio). */
export interface CallContext {
  /** The key's actor; null when no key was given (only key-less tools run then). */
  readonly actor: Actor | null
  readonly transport: "http" | "stdio"
  /** The caller's address, for sign-up's rate limit. */
  readonly ip: string
  readonly acceptLanguage: string | undefined
}

/** A tool's arguments, decoded by their schema (unknown fields refused, every bad one named). */
export type ToolInput = Schema.Decoder<object>
/** What a tool answers: the contract's schema of the use case's result (loose for clients: fields may be added). */
export type ToolOutput = Schema.Top & { readonly Type: object }

/** A keyed tool gets the actor; the dispatcher has already refused calls without one. */
export interface ToolSpec<I extends ToolInput, O extends ToolOutput> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: I
  readonly output: O
  readonly annotations?: ToolAnnotations
  /** True only for sign_up: callable without an API key. */
  readonly keyless?: boolean
  readonly run: (
    args: I["Type"],
    call: CallContext & { readonly actor: Actor }
  ) => Effect.Effect<O["Type"], HeraldError, McpServices>
  /** Custom rendering (an image preview, say); by default the output is the structured result. */
  readonly render?: (output: any) => CallToolResult
}

export type AnyTool = ToolSpec<ToolInput, ToolOutput>

/** Keeps each tool's argument and result types checked against its own schemas while listing them together. */
export const tool = <I extends ToolInput, O extends ToolOutput>(spec: ToolSpec<I, O>): AnyTool =>
  spec as unknown as AnyTool

/** A key-less tool sees `actor: null`. */
export const keylessTool = <I extends ToolInput, O extends ToolOutput>(
  spec: Omit<ToolSpec<I, O>, "run" | "keyless"> & {
    readonly run: (args: I["Type"], call: CallContext) => Effect.Effect<O["Type"], HeraldError, McpServices>
  }
): AnyTool => ({ ...spec, keyless: true }) as unknown as AnyTool

/** A result: the object as structured content, and the same JSON as text for clients without it. */
export const success = (value: object, extra: CallToolResult["content"] = []): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }, ...extra],
  structuredContent: value as Record<string, unknown>
})

/**
 * A tool error carrying the spec's envelope. No structuredContent: clients check it against the
 * tool's output schema even on errors.
 */
export const failure = (error: HeraldError): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(toEnvelope(error).body, null, 2) }],
  isError: true
})
