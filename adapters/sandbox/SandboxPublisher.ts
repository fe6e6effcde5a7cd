import { Context, Effect, Layer } from "effect"
import { type PublishRequest, PublishError, type Publisher } from "../../application/ports/Publishers.ts"

export interface SandboxRecord {
  readonly externalId: string
  readonly accountId: string
  readonly postId: string
  readonly content: string
  readonly replyTo: PublishRequest["replyTo"]
  readonly mediaIds: ReadonlyArray<string>
  readonly at: number
}

/** What the sandbox network "published", in order, for tests and the demo. */
export class SandboxPublished extends Context.Service<SandboxPublished, { readonly all: () => ReadonlyArray<SandboxRecord> }>()(
  "herald/sandbox/SandboxPublished"
) {}

/**
 * Accepts every capability. Content with `#fail` is refused (final), `#flaky` fails once (retryable):
 * a way to see failures end to end.
 */
export const make = Effect.sync(() => {
  const records: Array<SandboxRecord> = []
  const flaky = new Set<string>()
  let seq = 0
  const publisher: Publisher = {
    platform: "sandbox",
    publish: (request) =>
      Effect.suspend(() => {
        if (request.content.includes("#fail")) return Effect.fail(new PublishError("upstream_rejected", "The sandbox refused the content (#fail).", false))
        const flakyKey = `${request.postId}:${request.account.id}:${request.replyTo?.parentId ?? "root"}`
        if (request.content.includes("#flaky") && !flaky.has(flakyKey)) {
          flaky.add(flakyKey)
          return Effect.fail(new PublishError("upstream_unavailable", "The sandbox is briefly unavailable (#flaky).", true))
        }
        const externalId = `sbx_${(++seq).toString().padStart(8, "0")}`
        records.push({
          externalId, accountId: request.account.id, postId: request.postId, content: request.content, replyTo: request.replyTo,
          mediaIds: request.media.map((m) => m.id), at: Date.now()
        })
        return Effect.succeed({ externalId, url: `https://sandbox.herald.invalid/${request.account.username}/${externalId}` })
      })
  }
  return { publisher, records }
})

export const layerRecording = Layer.effectContext(
  Effect.map(make, ({ publisher, records }) =>
    Context.make(SandboxPublished, { all: () => [...records] }).pipe(Context.add(SandboxPublisherTag, publisher))
  )
)

/** The sandbox publisher itself, for the registry to pick up. */
export class SandboxPublisherTag extends Context.Service<SandboxPublisherTag, Publisher>()("herald/sandbox/Publisher") {}
