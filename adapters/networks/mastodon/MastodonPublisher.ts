import { randomUUID } from "node:crypto"
import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  type AdvisedPost,
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery,
  type UnpublishRequest
} from "../../../application/ports/Publishers.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Account } from "../../../domain/account.ts"
import { textLength } from "../../../domain/networkRules.ts"
import { isSuccess } from "../shared/http.ts"
import { readAll } from "../shared/media.ts"
import type { Acting, Answer, MastodonApi, NewStatus, Upload } from "./api.ts"
import type { InstanceLimits } from "./instanceLimits.ts"
import { instanceRefusedError, noAnswerError, publishErrorOf, throttledError, unreadable } from "./errors.ts"
import { decodeHandle, encodeHandle, type MastodonHandle } from "./handle.ts"
import { guardInstance, loopbackAllowed, parseInstance } from "./instance.ts"

/** Mastodon keeps an Idempotency-Key for an hour; past this, a repeated create could post twice. */
const IDEMPOTENCY_WINDOW_MS = 55 * 60_000
/** How soon to look again at uploads the instance is still processing. */
const PROCESSING_CHECK_MS = 5_000

type Visibility = NewStatus["visibility"]
/** From most to least visible: a reply is never more visible than the status it answers. */
const visibilities: ReadonlyArray<Visibility> = ["public", "unlisted", "private", "direct"]

const ok = <A>(answer: Answer<A>, what: string): Effect.Effect<A, PublishError> =>
  answer._tag === "Ok"
    ? Effect.succeed(answer.value)
    : Effect.fail(answer._tag === "Refused" ? publishErrorOf(answer.reply, what) : unreadable(answer.reply, what))

/** Who acts for stored credentials: the instance and account id they were issued for, and the token. */
export const actingOf = (c: NetworkCredentials | null): Effect.Effect<Acting, PublishError> => {
  const origin = c?.extra?.instance
  const accountId = c?.extra?.accountId
  return c === null || origin === undefined || accountId === undefined
    ? Effect.fail(PublishError.unauthorized({ message: "The Mastodon account has no stored access." }))
    : Effect.succeed({ origin, accountId, accessToken: c.accessToken })
}

const processing = (handle: MastodonHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const refused = (message: string) => PublishError.refused({ code: "upstream_rejected", message })

/** What the instance's own limits refuse in this status, checked before anything is sent. */
const problemOf = (
  request: PublishRequest,
  spoiler: string,
  limits: InstanceLimits,
  host: string
): PublishError | null => {
  // Mastodon counts the content warning and the text together.
  const used = textLength(`${spoiler}${request.content}`, "mastodon", limits.maxCharacters)
  if (used > limits.maxCharacters)
    return refused(
      `${host} takes statuses of up to ${limits.maxCharacters} characters (content warning included, a link counts 23); this one has ${used}.`
    )
  if (request.media.length > limits.maxMediaAttachments)
    return refused(`${host} takes up to ${limits.maxMediaAttachments} attachments per status.`)
  for (const m of request.media) {
    if (limits.supportedMimeTypes !== null && !limits.supportedMimeTypes.includes(m.mimeType))
      return refused(`${host} does not take ${m.mimeType} files.`)
    const cap = m.type === "image" ? limits.imageSizeLimit : limits.videoSizeLimit
    if (cap !== null && m.sizeBytes > cap)
      return refused(`${host} takes ${m.type}s of up to ${Math.floor(cap / 1_000_000)} MB; ${m.filename} is larger.`)
  }
  const poll = request.poll
  if (poll !== null) {
    const p = limits.poll
    if (poll.options.length > p.maxOptions) return refused(`${host} takes polls of up to ${p.maxOptions} options.`)
    if (poll.options.some((o) => textLength(o, "mastodon", p.maxCharactersPerOption) > p.maxCharactersPerOption))
      return refused(`${host} takes poll options of up to ${p.maxCharactersPerOption} characters.`)
    const seconds = poll.durationMinutes * 60
    if (seconds < p.minExpiration || seconds > p.maxExpiration)
      return refused(
        `${host} takes polls lasting ${Math.ceil(p.minExpiration / 60)} to ${Math.floor(p.maxExpiration / 60)} minutes.`
      )
  }
  return null
}

/**
 * Posts statuses to the account's instance: text under the instance's own limit, media (uploaded as
 * a step of their own, processed asynchronously by the instance), polls, content warnings and
 * visibility (`mastodon: {visibility, contentWarning}`), and threads and first comments as replies,
 * which take the visibility and content warning of the status they answer, as Mastodon's own app does.
 * Each create carries its handle's Idempotency-Key, so a create whose answer was lost is sent again
 * with the same key instead of being looked for.
 */
export const make = (deps: { readonly api: MastodonApi; readonly blobs: BlobStoreShape }): Publisher => {
  /** The status's settings: the post's own, or a reply's parent's. */
  const settingsOf = (request: PublishRequest, acting: Acting) =>
    Effect.gen(function* () {
      if (request.replyTo === null) {
        const own = request.options?.mastodon
        return { visibility: own?.visibility ?? "public", spoiler: own?.contentWarning?.trim() ?? "" }
      }
      const parent = yield* ok(yield* deps.api.status(acting, request.replyTo.parentId), "the status replied to")
      const visibility = visibilities.includes(parent.visibility as Visibility)
        ? (parent.visibility as Visibility)
        : "public"
      return { visibility, spoiler: parent.spoiler_text ?? "" }
    })

  type Settings = Effect.Success<ReturnType<typeof settingsOf>>

  const create = (
    request: PublishRequest,
    acting: Acting,
    handle: MastodonHandle,
    mediaIds: ReadonlyArray<string>,
    { visibility, spoiler }: Settings
  ) =>
    Effect.gen(function* () {
      const status: NewStatus = {
        status: request.content,
        visibility,
        ...(spoiler === "" ? {} : { spoiler_text: spoiler }),
        ...(mediaIds.length > 0 ? { media_ids: mediaIds } : {}),
        ...(request.poll !== null
          ? { poll: { options: request.poll.options, expires_in: request.poll.durationMinutes * 60 } }
          : {}),
        ...(request.replyTo !== null ? { in_reply_to_id: request.replyTo.parentId } : {})
      }
      const reply = yield* deps.api
        .createStatus(acting, status, handle.key)
        .pipe(
          Effect.catchTag("NoAnswer", (e) =>
            Effect.fail(
              PublishError.outcomeUnknown({ message: `The instance did not answer the status's create: ${e.message}` })
            )
          )
        )
      const made = yield* ok(reply, "the status")
      return published(made.id, made.url ?? null)
    })

  /** Uploads every file; the ones the instance still processes are looked at on later calls. */
  const upload = (request: PublishRequest, acting: Acting, handle: MastodonHandle) =>
    Effect.gen(function* () {
      const uploads: Array<Upload> = []
      for (const m of request.media) {
        const bytes = yield* readAll(deps.blobs, m.blobKey)
        uploads.push(
          yield* ok(
            yield* deps.api.upload(acting, new Blob([bytes], { type: m.mimeType }), m.filename, null),
            `the upload of ${m.filename}`
          )
        )
      }
      const mediaIds = uploads.map((u) => u.id)
      const waitingFor = uploads.filter((u) => !u.ready).map((u) => u.id)
      return waitingFor.length === 0
        ? processing({ v: 1, stage: "ready", key: handle.key, startedAt: handle.startedAt, mediaIds }, 0)
        : processing(
            { v: 1, stage: "processing", key: handle.key, startedAt: handle.startedAt, mediaIds, waitingFor },
            PROCESSING_CHECK_MS
          )
    })

  /** One look at the uploads still processing: wait more, or go on to the create on the next call. */
  const poll = (acting: Acting, handle: Extract<MastodonHandle, { stage: "processing" }>) =>
    Effect.gen(function* () {
      const still: Array<string> = []
      for (const id of handle.waitingFor) {
        const upload = yield* ok(yield* deps.api.media(acting, id), "the upload's processing")
        if (!upload.ready) still.push(id)
      }
      const { key, startedAt, mediaIds } = handle
      return still.length === 0
        ? processing({ v: 1, stage: "ready", key, startedAt, mediaIds }, 0)
        : processing({ v: 1, stage: "processing", key, startedAt, mediaIds, waitingFor: still }, PROCESSING_CHECK_MS)
    })

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request.credentials)
      // The instance was checked when the account connected; its name may point elsewhere since.
      yield* guardInstance({ origin: acting.origin, host: new URL(acting.origin).host })
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(
        decodeHandle(handleText),
        (): MastodonHandle => ({ v: 1, stage: "sending", key: randomUUID(), startedAt: now })
      )
      switch (handle.stage) {
        case "sending": {
          const limits = yield* deps.api.limits(acting.origin)
          const settings = yield* settingsOf(request, acting)
          const problem = problemOf(request, settings.spoiler, limits, new URL(acting.origin).host)
          if (problem !== null) return yield* problem
          if (request.media.length === 0) return yield* create(request, acting, handle, [], settings)
          return yield* upload(request, acting, handle)
        }
        case "processing":
          return yield* poll(acting, handle)
        case "ready":
          return yield* create(request, acting, handle, handle.mediaIds, yield* settingsOf(request, acting))
      }
    }).pipe(
      Effect.catchTags({
        Throttled: (e) => Effect.fail(throttledError(e)),
        NoAnswer: (e) => Effect.fail(noAnswerError(e)),
        InstanceRefused: (e) => Effect.fail(instanceRefusedError(e))
      })
    )

  /**
   * A create whose answer was lost can be sent again as it was within the key's hour: the instance
   * gives back the status it made, or makes it now. Later, only a person can tell.
   */
  const recover = (_request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" } satisfies Recovery
      if (handle.value.stage === "processing") return { _tag: "NotPublished" } satisfies Recovery
      const now = yield* Clock.currentTimeMillis
      return (
        now - handle.value.startedAt < IDEMPOTENCY_WINDOW_MS ? { _tag: "NotPublished" } : { _tag: "Unknown" }
      ) satisfies Recovery
    })

  /**
   * The dry run's word on the instance's own limits (the rules table holds Mastodon's defaults): the
   * limit with what the longest of the target's statuses uses, and each status the instance would refuse.
   */
  const advise = (account: Account, _dueAt: number, post: AdvisedPost) =>
    Effect.gen(function* () {
      const host = account.username.slice(account.username.lastIndexOf("@") + 1)
      const allowLoopback = yield* loopbackAllowed
      const local = /^(localhost|127\.|\[::1\])/.test(host) && allowLoopback
      const instance = parseInstance(`${local ? "http" : "https"}://${host}`, allowLoopback)
      if (!("origin" in instance)) return []
      const limits = yield* deps.api.limits(instance.origin)
      const max = limits.maxCharacters
      const spoiler = post.options.mastodon?.contentWarning?.trim() ?? ""
      const texts = post.text === undefined ? [] : [post.text.content, ...post.text.thread]
      if (post.text?.firstComment != null) texts.push(post.text.firstComment)
      const used = texts.map((t) => textLength(`${spoiler}${t}`, "mastodon", max + 1))
      const longest = Math.max(0, ...used)
      const over = used.flatMap((n, i) => (n > max ? [i] : []))
      return [
        `${host} takes statuses of up to ${max} characters (Mastodon's counting: a link counts 23, a mention only its username, the content warning counts too)${texts.length > 0 ? `; the longest here uses ${longest}` : ""}.`,
        ...(over.length > 0
          ? [
              `${over.length === 1 ? "A status" : `${over.length} statuses`} of this post ${over.length === 1 ? "is" : "are"} over ${host}'s limit of ${max}: Herald refuses ${over.length === 1 ? "it" : "them"} when publishing (upstream_rejected); shorten the text.`
            ]
          : [])
      ]
    })

  /**
   * DELETE /api/v1/statuses/:id, for the post and each of its replies and first comment alike (a
   * deleted status's replies stay on Mastodon). A status already gone (404) counts as removed.
   */
  const unpublish = (request: UnpublishRequest) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request.credentials)
      yield* guardInstance({ origin: acting.origin, host: new URL(acting.origin).host })
      const reply = yield* deps.api.deleteStatus(acting, request.externalId)
      if (isSuccess(reply) || reply.status === 404) return
      return yield* publishErrorOf(reply, "the removal of the status")
    }).pipe(
      Effect.catchTags({
        Throttled: (e) => Effect.fail(throttledError(e)),
        NoAnswer: (e) => Effect.fail(noAnswerError(e)),
        InstanceRefused: (e) => Effect.fail(instanceRefusedError(e))
      })
    )

  return {
    platform: "mastodon",
    prepare: () =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        encodeHandle({ v: 1, stage: "sending", key: randomUUID(), startedAt: now })
      ),
    publish,
    recover,
    advise,
    unpublish
  }
}
