import { Effect, Option, Schema } from "effect"
import {
  PublishError,
  type PublishOutcome,
  type Published,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { CreateResult } from "./graph.ts"

/**
 * Instagram's and Threads' two-step publishing: containers are created (carousel items first, then
 * the carousel), Meta fetches and processes the media, and only a FINISHED container is published.
 * Each step is one call of `publish` that answers Processing with the containers as the handle (the
 * job's checkpoint): nothing waits inside a call, the worker is free between polls, and a container
 * is never published before Meta says FINISHED. A container whose status is PUBLISHED was
 * published, which is how a lost answer is recovered.
 *
 * - `new`: nothing created yet (nothing can have been published with this handle).
 * - `children`: carousel items created, being processed; the carousel is made once all are FINISHED.
 * - `container`: the container to publish (the post itself, or the carousel), being processed.
 * - `ready`: Meta said FINISHED; the next call publishes it. Only with this handle can a publish
 *   have been sent, so only it costs a status call when recovering (the others are not live yet).
 */
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("new"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("children"),
    startedAt: Schema.Number,
    createdAt: Schema.Number,
    children: Schema.Array(Schema.String),
    polls: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("container"),
    startedAt: Schema.Number,
    createdAt: Schema.Number,
    children: Schema.Array(Schema.String),
    container: Schema.String,
    polls: Schema.Number
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("ready"),
    startedAt: Schema.Number,
    container: Schema.String
  })
])
export type ContainerHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))
export const encodeHandle = (handle: ContainerHandle): string => JSON.stringify(handle)
/** The handle, or none when it is absent or not one of ours (start afresh). */
export const decodeHandle = (text: string | null | undefined): Option.Option<ContainerHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
export const freshHandle = (startedAt: number): ContainerHandle => ({ v: 1, stage: "new", startedAt })

/** A container's state: EXPIRED, ERROR, FINISHED, IN_PROGRESS or PUBLISHED, with Meta's words when it failed. */
export interface ContainerStatus {
  readonly status: string
  readonly message: string | null
}

/** One network's container endpoints, for one account (and one post, for reading it back). */
export interface ContainerApi {
  readonly network: string
  /** POST /{user}/media (Instagram) or /{user}/threads (Threads): a container's id. */
  readonly create: (params: Readonly<Record<string, string>>) => Effect.Effect<string, PublishError>
  readonly status: (container: string) => Effect.Effect<ContainerStatus, PublishError>
  /** media_publish / threads_publish. */
  readonly publish: (container: string) => Effect.Effect<CreateResult>
  /** The post's URL (never fails: a post that is live stays live without it). */
  readonly permalink: (id: string) => Effect.Effect<string | null>
  /** The post among the account's recent ones, made since `sinceMs` (recovery of a lost publish answer). */
  readonly findPublished: (sinceMs: number) => Effect.Effect<Published | null, PublishError>
}

/** What to create: the post's own container, or a carousel's items and the carousel's fields (without `children`). */
export interface Containers {
  readonly items: ReadonlyArray<Readonly<Record<string, string>>>
  readonly carousel: Readonly<Record<string, string>> | null
}

/** The containers a post needs, made (media URLs signed) only when containers are created; whether a video is among them paces the polls. */
export interface ContainerPlan {
  readonly hasVideo: boolean
  readonly containers: Effect.Effect<Containers, PublishError>
}

/** Containers still processing after this long are given up on (Meta suggests minutes; video can take a while). */
export const MAX_PROCESSING_MS = 60 * 60_000
/** A throttled publish keeps its FINISHED container (it lives 24 hours) for a wait up to this long. */
const KEEP_CONTAINER_MS = 6 * 60 * 60_000
const MAX_POLL_WAIT_MS = 60_000

/** First look after 3 s (images) or 10 s (video), then twice as long each time, a minute at most. */
export const pollWaitMs = (plan: Pick<ContainerPlan, "hasVideo">, polls: number) =>
  Math.min(MAX_POLL_WAIT_MS, (plan.hasVideo ? 10_000 : 3_000) * 2 ** Math.min(polls, 8))

const processing = (handle: ContainerHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

export const processingFailed = (network: string, status: ContainerStatus) =>
  PublishError.refused({
    code: "upstream_rejected",
    message: `${network} could not process the media: ${status.message ?? status.status}`
  })

const tooSlow = (network: string) =>
  PublishError.unavailable({
    message: `${network} did not finish processing the media within ${MAX_PROCESSING_MS / 60_000} minutes; Herald starts over.`
  })

/** One step of publishing `plan` from `handle` at `now`: Processing with the next handle, or Published. */
export const step = (
  api: ContainerApi,
  plan: ContainerPlan,
  handle: ContainerHandle,
  now: number
): Effect.Effect<PublishOutcome, PublishError> =>
  Effect.gen(function* () {
    switch (handle.stage) {
      case "new": {
        const made = yield* plan.containers
        const ids = yield* Effect.forEach(made.items, (item) => api.create(item), { concurrency: 4 })
        if (made.carousel === null)
          return processing(
            {
              v: 1,
              stage: "container",
              startedAt: handle.startedAt,
              createdAt: now,
              children: [],
              container: ids[0]!,
              polls: 0
            },
            pollWaitMs(plan, 0)
          )
        return processing(
          { v: 1, stage: "children", startedAt: handle.startedAt, createdAt: now, children: ids, polls: 0 },
          pollWaitMs(plan, 0)
        )
      }
      case "children": {
        const statuses = yield* Effect.forEach(handle.children, (id) => api.status(id), { concurrency: 4 })
        const failed = statuses.find((s) => s.status === "ERROR")
        if (failed !== undefined) return yield* Effect.fail(processingFailed(api.network, failed))
        // An item left for a day expires: the items are made again.
        if (statuses.some((s) => s.status === "EXPIRED"))
          return yield* step(api, plan, freshHandle(handle.startedAt), now)
        if (statuses.every((s) => s.status === "FINISHED")) {
          const { carousel } = yield* plan.containers
          const container = yield* api.create({ ...carousel, children: handle.children.join(",") })
          return processing(
            {
              v: 1,
              stage: "container",
              startedAt: handle.startedAt,
              createdAt: now,
              children: handle.children,
              container,
              polls: 0
            },
            pollWaitMs(plan, 0)
          )
        }
        if (now - handle.createdAt > MAX_PROCESSING_MS) return yield* Effect.fail(tooSlow(api.network))
        return processing({ ...handle, polls: handle.polls + 1 }, pollWaitMs(plan, handle.polls + 1))
      }
      case "container": {
        const status = yield* api.status(handle.container)
        switch (status.status) {
          case "FINISHED":
            // Published on the next call, from a checkpoint that says a publish may be sent.
            return processing({ v: 1, stage: "ready", startedAt: handle.startedAt, container: handle.container }, 0)
          case "PUBLISHED": {
            // Not by this attempt's calls (they never publish from here): read it back rather than make it again.
            const found = yield* api.findPublished(handle.startedAt)
            if (found !== null) return { _tag: "Published", published: found } satisfies PublishOutcome
            return yield* Effect.fail(
              PublishError.outcomeUnknown({
                message: `${api.network} says the container was published, but the post was not found among the account's recent posts.`
              })
            )
          }
          case "ERROR":
            return yield* Effect.fail(processingFailed(api.network, status))
          case "EXPIRED":
            return yield* step(api, plan, freshHandle(handle.startedAt), now)
          default:
            if (now - handle.createdAt > MAX_PROCESSING_MS) return yield* Effect.fail(tooSlow(api.network))
            return processing({ ...handle, polls: handle.polls + 1 }, pollWaitMs(plan, handle.polls + 1))
        }
      }
      case "ready":
        return yield* publishFinished(api, handle)
    }
  })

/** Publishes a FINISHED container; a throttled publish keeps the container and waits (Processing) instead of making it again. */
const publishFinished = (api: ContainerApi, handle: Extract<ContainerHandle, { stage: "ready" }>) =>
  Effect.flatMap(api.publish(handle.container), (result): Effect.Effect<PublishOutcome, PublishError> => {
    switch (result._tag) {
      case "Created":
        return Effect.map(api.permalink(result.id), (url) => ({
          _tag: "Published",
          published: { externalId: result.id, url }
        }))
      case "Refused": {
        const e = result.error
        return e.reason._tag === "RateLimited" && e.retryAfterMs !== undefined && e.retryAfterMs <= KEEP_CONTAINER_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs))
          : Effect.fail(e)
      }
      case "Unknown":
        // Meta may have published it: the checkpoint (this container) is kept and `recover` asks its status.
        return Effect.fail(
          PublishError.outcomeUnknown({
            message: `The outcome of the ${api.network} publish is unknown: ${result.why}`
          })
        )
    }
  })

/**
 * After a lost attempt: a publish can only have been sent from a `ready` handle; its container, if
 * Meta says PUBLISHED, was published (the post is found among the recent ones). Earlier handles are
 * not live yet, without asking Meta.
 */
export const recover = (api: ContainerApi, handle: ContainerHandle): Effect.Effect<Recovery, PublishError> =>
  Effect.gen(function* () {
    if (handle.stage !== "ready") return { _tag: "NotPublished" } satisfies Recovery
    const status = yield* api.status(handle.container)
    if (status.status !== "PUBLISHED") return { _tag: "NotPublished" } satisfies Recovery
    const found = yield* api.findPublished(handle.startedAt)
    return found === null
      ? ({ _tag: "Unknown" } satisfies Recovery)
      : ({ _tag: "Published", published: found } satisfies Recovery)
  })
