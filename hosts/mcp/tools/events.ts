import { Schema } from "effect"
import { MAX_WAIT_SECONDS, waitForPost } from "../../../application/usecases/webhooks/feed.ts"
import { PostWait } from "../../../domain/contract/events.ts"
import { tool } from "../tool.ts"

export const waitForPostTool = tool({
  name: "wait_for_post",
  title: "Wait for a post's approval or result",
  description: [
    "Waits (up to waitSeconds, at most 60) until your post leaves needs_approval (until: decision) or reaches its final status",
    "(until: final: published or failed), or is rejected or cancelled, and answers at once when it has. Use it after create_post",
    "instead of polling get_post: one call learns whether your human approved or rejected the post. settled: false means the",
    "time ran out first; call again. status is the post's status, or rejected / cancelled (then post is null).",
    "Scripts with a public URL can register a webhook instead (POST /api/v1/webhooks) to be told of every event."
  ].join(" "),
  input: Schema.Struct({
    postId: Schema.String.annotate({ description: "The id create_post returned" }),
    until: Schema.optional(
      Schema.Literals(["decision", "final"]).annotate({
        description: "decision (default): approved or rejected; final: published or failed"
      })
    ),
    waitSeconds: Schema.optional(
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_WAIT_SECONDS })).annotate({
        description: `How long to wait at most (default ${MAX_WAIT_SECONDS})`
      })
    )
  }),
  output: PostWait,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (args, call) =>
    waitForPost(call.actor, args.postId, args.until ?? "decision", args.waitSeconds ?? MAX_WAIT_SECONDS)
})
