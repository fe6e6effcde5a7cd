import { Effect, type Duration, type Layer } from "effect"
import { ulid } from "../../adapters/crypto/NodeCrypto.ts"
import type { Account } from "../../domain/account.ts"
import type { ApiKey } from "../../domain/apiKey.ts"
import type { Media } from "../../domain/media.ts"
import type { Post, Target } from "../../domain/post.ts"
import type { Workspace } from "../../domain/workspace.ts"
import { DAY_MS } from "../../domain/time.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"

/**
 * How a backend runs a contract suite. The layer must give the ports an empty store each time it is
 * built (every suite builds it once); tests inside a suite share it and use their own workspaces.
 */
export interface SuiteOptions {
  /** Shares expensive layers (a database) across suites: build them once into this map. */
  readonly memoMap?: Layer.MemoMap | undefined
  readonly timeout?: Duration.Input | undefined
}

export const layerOptions = (options?: SuiteOptions) => ({
  ...(options?.memoMap ? { memoMap: options.memoMap } : {}),
  ...(options?.timeout ? { timeout: options.timeout } : {}),
  // The ports take time as an argument: no suite needs the TestClock, and drivers keep the real one.
  excludeTestServices: true
})

/** Sortable, unique ids like the production ones (ULID after a prefix). */
export const newId = (prefix: string): string => `${prefix}_${ulid(Date.now())}`

/** A fixed moment, so times in the tests are readable; 12:00 UTC on 15 Jan 2026. */
export const T0 = Date.UTC(2026, 0, 15, 12)

export const workspace = (over: Partial<Workspace> = {}): Workspace => {
  const id = newId("ws")
  return {
    id,
    name: "Acme",
    ownerEmail: `${id.toLowerCase()}@herald.test`,
    plan: "free",
    claimed: false,
    locale: "en",
    timeZone: "UTC",
    approvalMail: "each",
    createdAt: T0,
    expiresAt: T0 + 7 * DAY_MS,
    ...over
  }
}

/** Inserts a new workspace (the owner of everything else, for the databases' foreign keys). */
export const seedWorkspace = (over: Partial<Workspace> = {}) =>
  Effect.gen(function* () {
    const ws = workspace(over)
    yield* (yield* WorkspaceRepo).insert(ws).pipe(Effect.orDie)
    return ws
  })

export const apiKey = (workspaceId: string, over: Partial<ApiKey> = {}): ApiKey => {
  const id = newId("key")
  return {
    id,
    workspaceId,
    name: "agent",
    prefix: id.slice(-8),
    hash: `hash-${id}`,
    requireApproval: false,
    createdAt: T0,
    revokedAt: null,
    lastUsedAt: null,
    ...over
  }
}

export const account = (workspaceId: string, over: Partial<Account> = {}): Account => {
  const id = newId("acc")
  return {
    id,
    workspaceId,
    platform: "bluesky",
    name: "Acme on Bluesky",
    username: "acme.bsky.social",
    avatarUrl: null,
    status: "connected",
    connectedAt: T0,
    externalId: `did:plc:${id.toLowerCase()}`,
    ...over
  }
}

export const media = (workspaceId: string, over: Partial<Media> = {}): Media => {
  const id = newId("med")
  return {
    id,
    workspaceId,
    type: "image",
    mimeType: "image/png",
    filename: "photo.png",
    sizeBytes: 123_456,
    width: 800,
    height: 600,
    durationMs: null,
    blobKey: `media/${id}`,
    previewKey: `media/${id}.preview.jpg`,
    createdAt: T0,
    expiresAt: T0 + 7 * DAY_MS,
    ...over
  }
}

export const target = (accountId: string, over: Partial<Target> = {}): Target => ({
  accountId,
  platform: "bluesky",
  status: "scheduled",
  externalId: null,
  url: null,
  publishedAt: null,
  error: null,
  firstComment: null,
  thread: [],
  attempts: 0,
  ...over
})

export const post = (workspaceId: string, over: Partial<Post> = {}): Post => ({
  id: newId("post"),
  workspaceId,
  status: "scheduled",
  content: "Hello from Herald",
  mediaIds: [],
  firstComment: null,
  thread: [],
  poll: null,
  cover: null,
  tiktokAiGenerated: false,
  networkOptions: {},
  overrides: {},
  scheduledFor: T0 + DAY_MS,
  requireApproval: false,
  createdBy: { kind: "key", id: "key_1", name: "agent" },
  createdAt: T0,
  updatedAt: T0,
  publishedAt: null,
  deletedAt: null,
  deletedReason: null,
  targets: [target("acc_1")],
  ...over
})

/** Sorted copy, for comparing sets of ids whose order the port leaves open. */
export const sorted = (values: ReadonlyArray<string>): Array<string> => [...values].sort()
