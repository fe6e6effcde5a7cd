import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FakeX, startFakeX, TOO_LONG } from "./fakeX.ts"
import { connect, setNow, T0, xOn } from "./support.ts"

let fake: FakeX
beforeAll(async () => void (fake = await startFakeX()))
afterAll(() => fake.close())

const post = (url: string, token: string, body: FormData) =>
  fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` }, body }).then(async (r) => ({
    status: r.status,
    body: (await r.json().catch(() => null)) as any
  }))

describe("the fake X itself", () => {
  it.effect(
    "takes the older upload form too (command=INIT|APPEND|FINALIZE on /2/media/upload), as X's quickstart shows",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const { network } = yield* xOn(fake)
        const { credentials } = yield* connect(network)
        const token = credentials!.accessToken
        const url = `${fake.origin}/2/media/upload`
        const form = (fields: Record<string, string | Blob>) => {
          const f = new FormData()
          for (const [k, v] of Object.entries(fields)) f.set(k, v)
          return f
        }
        const init = yield* Effect.promise(() =>
          post(
            url,
            token,
            form({ command: "INIT", media_type: "video/mp4", total_bytes: "10", media_category: "tweet_video" })
          )
        )
        assert.strictEqual(init.status, 200)
        const id: string = init.body.data.id
        const append = yield* Effect.promise(() =>
          post(
            url,
            token,
            form({ command: "APPEND", media_id: id, segment_index: "0", media: new Blob([new Uint8Array(10)]) })
          )
        )
        assert.strictEqual(append.status, 200)
        const finalize = yield* Effect.promise(() => post(url, token, form({ command: "FINALIZE", media_id: id })))
        assert.deepStrictEqual(finalize.body.data.processing_info, { state: "pending", check_after_secs: 1 })
        assert.strictEqual(fake.media.get(id)?.totalBytes, 10)
        // A size that does not add up is refused, as X does.
        const short = yield* Effect.promise(() =>
          post(url, token, form({ command: "INIT", media_type: "video/mp4", total_bytes: "11" }))
        )
        const refused = yield* Effect.promise(() =>
          post(url, token, form({ command: "FINALIZE", media_id: short.body.data.id }))
        )
        assert.strictEqual(refused.status, 400)
      })
  )

  it.effect("answers 401 without a valid bearer token, and counts calls in X's windows with X's headers", () =>
    Effect.gen(function* () {
      const noToken = yield* Effect.promise(() => fetch(`${fake.origin}/2/users/me`))
      assert.strictEqual(noToken.status, 401)
      assert.deepStrictEqual(yield* Effect.promise(() => noToken.json()), {
        title: "Unauthorized",
        type: "about:blank",
        status: 401,
        detail: "Unauthorized"
      })
      yield* setNow(fake, T0 + 10_000_000)
      const { network } = yield* xOn(fake)
      const { credentials } = yield* connect(network)
      const me = yield* Effect.promise(() =>
        fetch(`${fake.origin}/2/users/me`, { headers: { authorization: `Bearer ${credentials!.accessToken}` } })
      )
      assert.strictEqual(
        me.headers.get("x-rate-limit-reset"),
        String(Math.ceil((T0 + 10_000_000 + 15 * 60_000) / 1000))
      )
      assert.match(me.headers.get("x-rate-limit-remaining") ?? "", /^\d+$/)
    })
  )

  it.effect("refuses a text over 280 weighted characters as X does, and takes one of exactly 280", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + 20_000_000)
      const { network } = yield* xOn(fake)
      const { credentials } = yield* connect(network)
      const tweet = (text: string) =>
        Effect.promise(() =>
          fetch(`${fake.origin}/2/tweets`, {
            method: "POST",
            headers: { authorization: `Bearer ${credentials!.accessToken}`, "content-type": "application/json" },
            body: JSON.stringify({ text })
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
        )
      // 141 CJK characters weigh 282; a link weighs 23 whatever its length.
      const cjk = yield* tweet("日".repeat(141))
      assert.strictEqual(cjk.status, 400)
      assert.deepStrictEqual(cjk.body.errors, [{ parameters: {}, message: TOO_LONG }])
      assert.strictEqual(cjk.body.type, "https://api.twitter.com/2/problems/invalid-request")
      const withLink = yield* tweet(`${"a".repeat(257)} https://example.org/${"x".repeat(200)}`)
      assert.strictEqual(withLink.status, 400)
      assert.strictEqual((yield* tweet(`${"b".repeat(256)} https://example.org/${"x".repeat(200)}`)).status, 201)
      assert.strictEqual((yield* tweet("日".repeat(140))).status, 201)
    })
  )
})
