import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeTikTok, MAX_CHUNKS, startFakeTikTok } from "./fakeTikTok.ts"
import { connect, MB5, setNow, T0, tiktokOn } from "./support.ts"

let fake: FakeTikTok
beforeAll(async () => void (fake = await startFakeTikTok()))
afterAll(() => fake.close())

/** A call to the fake's Content Posting API with an access token, answering TikTok's envelope. */
const api = (token: string, path: string, body: unknown) =>
  Effect.promise(() =>
    fetch(`${fake.origin}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json; charset=UTF-8" },
      body: JSON.stringify(body)
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
  )

const tokenFor = Effect.gen(function* () {
  const { network } = yield* tiktokOn(fake)
  return (yield* connect(fake, network)).credentials!.accessToken
})

const postInfo = { title: "t", privacy_level: "PUBLIC_TO_EVERYONE", disable_comment: false, disable_duet: true }
const init = (token: string, size: number, chunk: number, count: number) =>
  api(token, "/v2/post/publish/video/init/", {
    post_info: postInfo,
    source_info: { source: "FILE_UPLOAD", video_size: size, chunk_size: chunk, total_chunk_count: count }
  })

describe("the fake TikTok itself", () => {
  it.effect("takes 1 to 1000 chunks of 5-64 MB, as the media transfer guide says, and refuses 1001", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0)
      const token = yield* tokenFor
      const most = yield* init(token, MAX_CHUNKS * MB5, MB5, MAX_CHUNKS)
      assert.strictEqual(most.status, 200, JSON.stringify(most.body))
      const over = yield* init(token, (MAX_CHUNKS + 1) * MB5, MB5, MAX_CHUNKS + 1)
      assert.strictEqual(over.status, 400)
      assert.strictEqual(over.body.error.code, "invalid_params")
      assert.strictEqual((yield* init(token, 1000, 1000, 0)).status, 400, "no chunk at all")
    })
  )

  it.effect("shows a public post's id only once moderation is done, after PUBLISH_COMPLETE", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + 86_400_000)
      fake.state.moderationPolls = 2
      try {
        const token = yield* tokenFor
        const started = yield* init(token, 1000, 1000, 1)
        const put = yield* Effect.promise(() =>
          fetch(started.body.data.upload_url, {
            method: "PUT",
            headers: { "content-type": "video/mp4", "content-range": "bytes 0-999/1000" },
            body: new Uint8Array(1000)
          })
        )
        assert.strictEqual(put.status, 201)
        const reads: Array<[string, unknown]> = []
        for (let i = 0; i < 5; i++) {
          const { body } = yield* api(token, "/v2/post/publish/status/fetch/", {
            publish_id: started.body.data.publish_id
          })
          reads.push([body.data.status, body.data.publicaly_available_post_id?.length ?? 0])
        }
        assert.deepStrictEqual(reads, [
          ["PROCESSING_DOWNLOAD", 0],
          ["PUBLISH_COMPLETE", 0],
          ["PUBLISH_COMPLETE", 0],
          ["PUBLISH_COMPLETE", 1],
          ["PUBLISH_COMPLETE", 1]
        ])
      } finally {
        fake.state.moderationPolls = 0
      }
    })
  )
})
