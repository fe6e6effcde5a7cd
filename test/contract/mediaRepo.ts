import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { DAY_MS } from "../../domain/time.ts"
import { layerOptions, media, seedWorkspace, sorted, type SuiteOptions, T0 } from "./fixtures.ts"

export const mediaRepoContract = (
  name: string,
  ports: Layer.Layer<MediaRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`MediaRepo contract (${name})`, (it) => {
    it.effect("stores media records and finds them within their workspace", () =>
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const video = media(ws.id, {
          type: "video",
          mimeType: "video/mp4",
          filename: "clip.mp4",
          sizeBytes: 3_000_000_000,
          width: 1920,
          height: 1080,
          durationMs: 15_500,
          previewKey: null
        })
        yield* repo.insert(video)
        assert.deepStrictEqual(yield* repo.findById(ws.id, video.id), Option.some(video))
        assert.isTrue(Option.isNone(yield* repo.findById(other.id, video.id)))
      })
    )

    it.effect("findByIds returns the workspace's own media and ignores other workspaces and unknown ids", () =>
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const mine = [media(ws.id), media(ws.id, { width: null, height: null })]
        const theirs = media(other.id)
        for (const m of [...mine, theirs]) yield* repo.insert(m)
        const found = yield* repo.findByIds(ws.id, [mine[0].id, theirs.id, "med_missing", mine[1].id, mine[0].id])
        assert.deepStrictEqual(sorted(found.map((m) => m.id)), sorted(mine.map((m) => m.id)))
        assert.deepStrictEqual(
          found.find((m) => m.id === mine[1].id),
          mine[1]
        )
        assert.deepStrictEqual(yield* repo.findByIds(ws.id, []), [])
        assert.deepStrictEqual(
          yield* repo.findByIds(
            other.id,
            mine.map((m) => m.id)
          ),
          []
        )
      })
    )

    it.effect("lists a workspace's media oldest first, up to the limit", () =>
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const mine = [
          media(ws.id, { createdAt: T0 + 2 }),
          media(ws.id, { createdAt: T0 + 1 }),
          media(ws.id, { createdAt: T0 + 3 })
        ]
        for (const m of [...mine, media(other.id)]) yield* repo.insert(m)
        assert.deepStrictEqual(
          (yield* repo.listByWorkspace(ws.id, 10)).map((m) => m.id),
          [mine[1].id, mine[0].id, mine[2].id]
        )
        assert.deepStrictEqual(
          (yield* repo.listByWorkspace(ws.id, 2)).map((m) => m.id),
          [mine[1].id, mine[0].id]
        )
      })
    )

    it.effect("counts a workspace's media", () =>
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const ws = yield* seedWorkspace()
        assert.strictEqual(yield* repo.countByWorkspace(ws.id), 0)
        for (let i = 0; i < 3; i++) yield* repo.insert(media(ws.id))
        assert.strictEqual(yield* repo.countByWorkspace(ws.id), 3)
      })
    )

    it.effect("lists media expired at or before now, up to the limit, and deletes records", () =>
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const ws = yield* seedWorkspace()
        const now = T0 + 100 * DAY_MS
        const expired = media(ws.id, { expiresAt: now - DAY_MS })
        const expiresNow = media(ws.id, { expiresAt: now })
        const live = media(ws.id, { expiresAt: now + 1 })
        for (const m of [expired, expiresNow, live]) yield* repo.insert(m)
        const ids = (yield* repo.listExpired(now, 1000)).map((m) => m.id)
        assert.include(ids, expired.id)
        assert.include(ids, expiresNow.id)
        assert.notInclude(ids, live.id)
        assert.strictEqual((yield* repo.listExpired(now, 1)).length, 1)

        yield* repo.delete(expired.id)
        assert.isTrue(Option.isNone(yield* repo.findById(ws.id, expired.id)))
        assert.strictEqual(yield* repo.countByWorkspace(ws.id), 2)
      })
    )
  })
