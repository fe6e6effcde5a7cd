import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import type { Post } from "../../domain/post.ts"
import { layerOptions, newId, post, seedWorkspace, type SuiteOptions, T0, target } from "./fixtures.ts"

/** A post with every optional part filled in, to check that nothing is lost on the way. */
const fullPost = (workspaceId: string): Post =>
  post(workspaceId, {
    status: "failed",
    content: "Launch day 🚀 — «quotes» and 'apostrophes'",
    mediaIds: [newId("med"), newId("med")],
    firstComment: "Link in the first comment",
    thread: ["second part", "third part"],
    poll: { options: ["yes", "no"], durationMinutes: 60, question: "Ship it?" },
    cover: { offsetMs: 1500 },
    tiktokAiGenerated: true,
    networkOptions: {
      tiktok: { privacyLevel: "SELF_ONLY", brandedContent: false },
      youtube: { title: "Launch", privacyStatus: "unlisted", madeForKids: false, tags: ["launch day", "herald"] },
      pinterest: { boardId: "549755885175", link: "https://example.org/launch", title: "Launch" }
    },
    overrides: {
      x: { content: "Launch 🚀", mediaIds: [], thread: ["short"] },
      linkedin: { content: "Launch day, the long version", firstComment: null }
    },
    scheduledFor: null,
    requireApproval: true,
    createdBy: { kind: "person", id: "person_1", name: "Ada" },
    updatedAt: T0 + 5000,
    publishedAt: null,
    targets: [
      target("acc_a", {
        status: "published",
        externalId: "at://did:plc:abc/app.bsky.feed.post/3k",
        url: "https://bsky.app/profile/acme/post/3k",
        publishedAt: T0 + 4321,
        firstComment: {
          status: "failed",
          externalId: null,
          error: { code: "rate_limited", message: "Slow down", retryable: true }
        },
        thread: [{ index: 1, externalId: "r1", url: null }],
        attempts: 1
      }),
      target("acc_b", {
        platform: "x",
        status: "failed",
        error: { code: "network_rejected", message: "Duplicate content", retryable: false },
        attempts: 3
      })
    ]
  })

export const postRepoContract = (
  name: string,
  ports: Layer.Layer<PostRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`PostRepo contract (${name})`, (it) => {
    it.effect("stores a post with its targets and reads it back unchanged, within its workspace", () =>
      Effect.gen(function* () {
        const repo = yield* PostRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const full = fullPost(ws.id)
        const plain = post(ws.id, { cover: { mediaId: newId("med") } })
        yield* repo.insert(full)
        yield* repo.insert(plain)
        assert.deepStrictEqual(yield* repo.findById(ws.id, full.id), Option.some(full))
        assert.deepStrictEqual(yield* repo.findById(ws.id, plain.id), Option.some(plain))
        assert.isTrue(Option.isNone(yield* repo.findById(other.id, full.id)))
      })
    )

    it.effect("update replaces the post and its targets", () =>
      Effect.gen(function* () {
        const repo = yield* PostRepo
        const ws = yield* seedWorkspace()
        const p = post(ws.id)
        yield* repo.insert(p)
        const published: Post = {
          ...p,
          status: "published",
          publishedAt: T0 + 9000,
          updatedAt: T0 + 9000,
          targets: [
            target("acc_1", {
              status: "published",
              externalId: "e1",
              url: "https://x/1",
              publishedAt: T0 + 9000,
              attempts: 1
            })
          ]
        }
        yield* repo.update(published)
        assert.deepStrictEqual(yield* repo.findById(ws.id, p.id), Option.some(published))
      })
    )

    it.effect("lists visible posts newest first, by status, page by page", () =>
      Effect.gen(function* () {
        const repo = yield* PostRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const statuses = ["scheduled", "published", "scheduled", "failed", "scheduled", "needs_approval"] as const
        const created: Array<Post> = []
        for (const status of statuses) {
          const p = post(ws.id, { status })
          yield* repo.insert(p)
          created.push(p)
        }
        const cancelled = { ...post(ws.id), deletedAt: T0 + 1, deletedReason: "cancelled" as const }
        yield* repo.insert(cancelled)
        yield* repo.insert(post(other.id))
        const newestFirst = created.map((p) => p.id).reverse()

        const all = yield* repo.list(ws.id, { limit: 100 })
        assert.deepStrictEqual(
          all.map((p) => p.id),
          newestFirst
        )

        const scheduled = yield* repo.list(ws.id, { status: "scheduled", limit: 100 })
        assert.deepStrictEqual(
          scheduled.map((p) => p.id),
          newestFirst.filter((id) => created.find((p) => p.id === id)?.status === "scheduled")
        )

        const pages: Array<Array<string>> = []
        let after: string | undefined
        for (;;) {
          const page: ReadonlyArray<Post> = yield* repo.list(ws.id, { limit: 4, after })
          if (page.length === 0) break
          pages.push(page.map((p) => p.id))
          after = page[page.length - 1].id
        }
        assert.deepStrictEqual(pages, [newestFirst.slice(0, 4), newestFirst.slice(4)])

        const firstScheduled = yield* repo.list(ws.id, { status: "scheduled", limit: 1 })
        const nextScheduled = yield* repo.list(ws.id, { status: "scheduled", limit: 10, after: firstScheduled[0].id })
        assert.deepStrictEqual(
          [...firstScheduled, ...nextScheduled].map((p) => p.id),
          scheduled.map((p) => p.id)
        )
      })
    )

    it.effect("cancelled and rejected posts are kept for findById but hidden from list", () =>
      Effect.gen(function* () {
        const repo = yield* PostRepo
        const ws = yield* seedWorkspace()
        const p = post(ws.id, { status: "needs_approval" })
        yield* repo.insert(p)
        const rejected: Post = { ...p, deletedAt: T0 + 60_000, deletedReason: "rejected", updatedAt: T0 + 60_000 }
        yield* repo.update(rejected)
        assert.deepStrictEqual(yield* repo.findById(ws.id, p.id), Option.some(rejected))
        assert.deepStrictEqual(yield* repo.list(ws.id, { limit: 10 }), [])
        assert.deepStrictEqual(yield* repo.list(ws.id, { status: "needs_approval", limit: 10 }), [])
      })
    )

    it.effect("findMany reads a batch (each post within its workspace) and updateMany replaces a batch", () =>
      Effect.gen(function* () {
        const repo = yield* PostRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const full = fullPost(ws.id)
        const plain = post(ws.id)
        const elsewhere = post(other.id)
        for (const p of [full, plain, elsewhere]) yield* repo.insert(p)
        const byId = (list: ReadonlyArray<Post>) => Object.fromEntries(list.map((p) => [p.id, p]))
        assert.deepStrictEqual(
          byId(
            yield* repo.findMany([
              { workspaceId: ws.id, id: full.id },
              { workspaceId: ws.id, id: plain.id },
              { workspaceId: ws.id, id: elsewhere.id },
              { workspaceId: ws.id, id: newId("post") }
            ])
          ),
          byId([full, plain])
        )
        assert.deepStrictEqual(yield* repo.findMany([]), [])
        const changedFull: Post = {
          ...full,
          status: "published",
          content: "edited",
          poll: null,
          cover: null,
          publishedAt: T0 + 7000,
          updatedAt: T0 + 7000
        }
        const changedPlain: Post = {
          ...plain,
          status: "published",
          publishedAt: T0 + 9000,
          updatedAt: T0 + 9000,
          targets: [
            target("acc_1", {
              status: "published",
              externalId: "e1",
              url: "https://x/1",
              publishedAt: T0 + 9000,
              attempts: 1
            })
          ]
        }
        // A post of another workspace named with the wrong workspace is not touched.
        yield* repo.updateMany([changedFull, changedPlain, { ...elsewhere, workspaceId: ws.id, content: "hijacked" }])
        yield* repo.updateMany([])
        assert.deepStrictEqual(yield* repo.findById(ws.id, full.id), Option.some(changedFull))
        assert.deepStrictEqual(yield* repo.findById(ws.id, plain.id), Option.some(changedPlain))
        assert.deepStrictEqual(yield* repo.findById(other.id, elsewhere.id), Option.some(elsewhere))
      })
    )
  })
