import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * Discord's webhook API stand-in, written from Discord's documentation (discord.com/developers/docs:
 * resources/webhook — Get Webhook with Token, Execute Webhook with `wait`, `thread_id`, `thread_name`,
 * `payload_json` and `files[n]`, Delete Webhook Message; resources/poll — the poll create request;
 * topics/rate-limits — X-RateLimit-Remaining/Reset-After and 429 with `retry_after` in seconds;
 * topics/opcodes-and-status-codes — 10015 Unknown Webhook, 10008 Unknown Message, 50035 Invalid Form
 * Body, 220001 forum without thread_name). It records what it got; tests script faults.
 */

export interface FakeWebhook {
  readonly id: string
  readonly token: string
  readonly name: string
  readonly channelId: string
  readonly guildId: string
  /** Its channel is a forum: each message must start a post (thread_name) or go to one (thread_id). */
  readonly forum: boolean
}

export interface FakeMessage {
  readonly id: string
  readonly webhookId: string
  /** The webhook's channel, or the forum post's thread. */
  readonly channelId: string
  readonly content: string
  readonly allowedMentions: unknown
  readonly files: ReadonlyArray<{ readonly field: string; readonly filename: string; readonly sha256: string }>
  readonly poll: unknown
  readonly threadName: string | null
}

let nextId = 1_300_000_000_000_000_000n

export const startFakeDiscord = async () => {
  const log = requestLog<unknown>()
  const state = {
    clock: null as number | null,
    webhooks: new Map<string, FakeWebhook>(),
    messages: new Map<string, FakeMessage>(),
    /** Calls left in each webhook's bucket before X-RateLimit-Remaining says 0 (reset after 2 s). */
    bucketSize: 50,
    used: new Map<string, number>()
  }
  const snowflake = () => String(nextId++)

  const addWebhook = (fields: Partial<FakeWebhook> = {}): FakeWebhook & { url: string } => {
    const hook: FakeWebhook = {
      id: snowflake(),
      token: `tok_${createHash("sha1").update(String(nextId)).digest("hex").slice(0, 24)}`,
      name: "Herald news",
      channelId: snowflake(),
      guildId: "1100000000000000001",
      forum: false,
      ...fields
    }
    state.webhooks.set(hook.id, hook)
    return { ...hook, url: `${server.origin}/api/webhooks/${hook.id}/${hook.token}` }
  }

  const bucketHeaders = (hookId: string) => {
    const used = (state.used.get(hookId) ?? 0) + 1
    state.used.set(hookId, used)
    return {
      "x-ratelimit-limit": String(state.bucketSize),
      "x-ratelimit-remaining": String(Math.max(0, state.bucketSize - used)),
      "x-ratelimit-reset-after": "2.000",
      "x-ratelimit-bucket": `hook-${hookId}`
    }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x")
    const { raw, type, parsed } = await readRequestBody(req)
    let body: unknown = parsed
    let files: Array<{ field: string; filename: string; sha256: string }> = []
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request("http://x", {
        method: "POST",
        headers: { "content-type": type },
        body: raw
      }).formData()
      body = JSON.parse(String(form.get("payload_json") ?? "{}"))
      files = []
      for (const [field, value] of form.entries())
        if (typeof value !== "string")
          files.push({
            field,
            filename: value.name,
            sha256: createHash("sha256")
              .update(Buffer.from(await value.arrayBuffer()))
              .digest("hex")
          })
    }
    const scripted = log.record(req, url, { body, files })
    if (scripted !== null) {
      if (scripted.dropAnswer === true) return req.socket.destroy()
      return sendJson(res, scripted.status, scripted.body, scripted.headers as Record<string, string>)
    }
    const match = /^\/api\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/(\d+))?$/.exec(url.pathname)
    const hook = match === null ? undefined : state.webhooks.get(match[1]!)
    if (match === null) return sendJson(res, 404, { message: "404: Not Found", code: 0 })
    if (hook === undefined) return sendJson(res, 404, { message: "Unknown Webhook", code: 10015 })
    if (hook.token !== match[2]) return sendJson(res, 401, { message: "Invalid Webhook Token", code: 50027 })
    const headers = bucketHeaders(hook.id)
    const messageId = match[3]
    if (req.method === "GET" && messageId === undefined)
      return sendJson(
        res,
        200,
        {
          type: 1,
          id: hook.id,
          name: hook.name,
          avatar: null,
          channel_id: hook.channelId,
          guild_id: hook.guildId,
          application_id: null,
          token: hook.token
        },
        headers
      )
    if (req.method === "DELETE" && messageId !== undefined) {
      const message = state.messages.get(messageId)
      const where = url.searchParams.get("thread_id") ?? hook.channelId
      if (message === undefined || message.webhookId !== hook.id || message.channelId !== where)
        return sendJson(res, 404, { message: "Unknown Message", code: 10008 }, headers)
      state.messages.delete(messageId)
      return sendJson(res, 204, undefined, headers)
    }
    if (req.method === "POST" && messageId === undefined) {
      const b = (body ?? {}) as {
        content?: string
        thread_name?: string
        poll?: unknown
        allowed_mentions?: unknown
        attachments?: unknown
      }
      const content = b.content ?? ""
      // Invalid Form Body names each refused field: {errors: {content: {_errors: [{code, message}]}}}.
      const invalid = (field: string, message: string) =>
        sendJson(
          res,
          400,
          {
            message: "Invalid Form Body",
            code: 50035,
            errors: { [field]: { _errors: [{ code: "BASE_TYPE_INVALID", message }] } }
          },
          headers
        )
      if (content.length > 2000) return invalid("content", "Must be 2000 or fewer in length.")
      if (content === "" && files.length === 0 && b.poll === undefined)
        return sendJson(res, 400, { message: "Cannot send an empty message", code: 50006 }, headers)
      if (files.length > 10) return invalid("files", "Too many attachments.")
      if (b.poll !== undefined && files.length > 0) return invalid("poll", "Polls cannot have attachments.")
      const threadId = url.searchParams.get("thread_id")
      if (threadId !== null && b.thread_name !== undefined)
        return invalid("thread_name", "thread_id and thread_name cannot both be given.")
      if (threadId !== null && ![...state.messages.values()].some((m) => m.channelId === threadId))
        return sendJson(res, 400, { message: "Unknown Channel", code: 10003 }, headers)
      if (hook.forum && threadId === null && b.thread_name === undefined)
        return sendJson(
          res,
          400,
          { message: "Webhooks posted to forum channels must have a thread_name or thread_id", code: 220001 },
          headers
        )
      const id = snowflake()
      // A forum post's thread has its starter message's id.
      const channelId = threadId ?? (hook.forum ? id : hook.channelId)
      const message: FakeMessage = {
        id,
        webhookId: hook.id,
        channelId,
        content,
        allowedMentions: b.allowed_mentions,
        files,
        poll: b.poll ?? null,
        threadName: hook.forum && threadId === null ? (b.thread_name ?? null) : null
      }
      state.messages.set(id, message)
      if (url.searchParams.get("wait") !== "true") return sendJson(res, 204, undefined, headers)
      return sendJson(
        res,
        200,
        {
          id,
          type: 0,
          channel_id: channelId,
          content,
          webhook_id: hook.id,
          attachments: files.map((f, i) => ({ id: String(i), filename: f.filename })),
          timestamp: new Date().toISOString()
        },
        headers
      )
    }
    return sendJson(res, 405, { message: "405: Method Not Allowed", code: 0 })
  }

  const server = await listenLocally(handle, (res, e) => sendJson(res, 500, { message: String(e), code: 0 }))
  return {
    ...log,
    state,
    origin: server.origin,
    apiUrl: `${server.origin}/api`,
    addWebhook,
    resetBuckets: () => state.used.clear(),
    close: server.close
  }
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>
