import sharp from "sharp"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { connectSandboxAccount, type Harness, postJson, readJson, startHarness, uploadMultipart } from "./harness.ts"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const connectSandbox = (apiKey: string) => connectSandboxAccount(h, apiKey)
const post = (apiKey: string, body: unknown) => postJson(h, apiKey, body)

const upload = async (apiKey: string, color: string) => {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: color } })
    .png()
    .toBuffer()
  return (await readJson(await uploadMultipart(h, apiKey, png, `${color.slice(1)}.png`))).media.id as string
}

describe("uploads used in POST /posts", () => {
  it("an expired upload is 409 media_expired (and its preview too)", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const accountId = await connectSandbox(apiKey)
    const id = await upload(apiKey, "#123456")
    // Seven days are simulated by moving the record's expiry into the past.
    await h.run(
      Effect.gen(function* () {
        const repo = yield* MediaRepo
        const media = Option.getOrThrow(yield* repo.findById(workspaceId, id))
        yield* repo.insert({ ...media, createdAt: media.createdAt - 8 * 86_400_000, expiresAt: Date.now() - 1 })
      })
    )
    const res = await post(apiKey, { accountIds: [accountId], content: "late", mediaIds: [id] })
    expect(res.status).toBe(409)
    expect((await readJson(res)).error).toMatchObject({ code: "media_expired", details: { mediaIds: [id] } })
    const preview = await fetch(`${h.api}/media/${id}/preview`, { headers: { authorization: `Bearer ${apiKey}` } })
    expect(preview.status).toBe(409)
  })

  it("a carousel keeps the order given; another workspace's upload is media_not_found", async () => {
    const { apiKey } = await h.signup()
    const other = await h.signup()
    const accountId = await connectSandbox(apiKey)
    const [a, b, c] = [
      await upload(apiKey, "#aa0000"),
      await upload(apiKey, "#00aa00"),
      await upload(apiKey, "#0000aa")
    ]
    const res = await post(apiKey, { accountIds: [accountId], content: "carousel", mediaIds: [c, a, b], dryRun: true })
    expect(res.status).toBe(200)
    const created = await post(apiKey, { accountIds: [accountId], content: "carousel", mediaIds: [c, a, b] })
    expect(created.status).toBe(201)
    expect((await readJson(created)).post.mediaIds).toEqual([c, a, b])
    const foreign = await upload(other.apiKey, "#777777")
    const refused = await post(apiKey, { accountIds: [accountId], content: "x", mediaIds: [foreign] })
    expect(refused.status).toBe(404)
    expect((await readJson(refused)).error.code).toBe("media_not_found")
  })
})
