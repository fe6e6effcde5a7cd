import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import * as Actions from "../../../application/usecases/posts/actions.ts"
import type { createPost } from "../../../application/usecases/posts/create.ts"
import { getPost, listPosts } from "../../../application/usecases/posts/query.ts"
import { updatePost } from "../../../application/usecases/posts/update.ts"
import { takeDownPost, takeDownTarget } from "../../../application/usecases/posts/takedown.ts"
import { HeraldApi } from "../api.ts"
import { answerCreatePost } from "./createPost.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof createPost>>
  | Effect.Services<ReturnType<typeof listPosts>>
  | Effect.Services<ReturnType<typeof Actions.approvePost>>
  | Effect.Services<ReturnType<typeof Actions.retryFirstComment>>
  | Effect.Services<ReturnType<typeof updatePost>>
  | Effect.Services<ReturnType<typeof takeDownTarget>>

export const layer = HttpApiBuilder.group(HeraldApi, "posts", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    const byId =
      (
        action: (
          actor: import("../../../domain/apiKey.ts").Actor,
          id: string
        ) => Effect.Effect<unknown, import("../../../domain/errors.ts").HeraldError, Services>
      ) =>
      ({ params }: { readonly params: { readonly id: string } }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Effect.map(action(actor, params.id), (body) => json(body))))
    return handlers
      .handle("create", ({ headers, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(answerCreatePost(actor, payload, headers["idempotency-key"] ?? null), (answer) =>
              json(answer.body, answer.status)
            )
          )
        )
      )
      .handle("list", ({ query }) => run(Effect.flatMap(CurrentActor, (actor) => listPosts(actor, query))))
      .handle("get", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => getPost(actor, params.id))))
      .handle("update", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(updatePost(actor, params.id, payload), (body) => json(body))
          )
        )
      )
      .handle("takeDownTarget", ({ params }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(takeDownTarget(actor, params.id, params.accountId), (body) => json(body, 202))
          )
        )
      )
      .handle("takeDownPost", ({ params }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) => Effect.map(takeDownPost(actor, params.id), (body) => json(body, 202)))
        )
      )
      .handle("approve", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Actions.approvePost(actor, params.id, payload?.version), (body) => json(body))
          )
        )
      )
      .handle("reject", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Actions.rejectPost(actor, params.id, payload?.reason), (body) => json(body))
          )
        )
      )
      .handle("cancel", byId(Actions.cancelPost))
      .handle("retry", byId(Actions.retryPost))
      .handle("reschedule", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Actions.reschedulePost(actor, params.id, payload), (body) => json(body))
          )
        )
      )
      .handle("retryFirstComment", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Actions.retryFirstComment(actor, params.id, payload.accountId ?? null), (b) => json(b))
          )
        )
      )
      .handle("bulkApprove", ({ payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) => Effect.map(Actions.bulkApprove(actor, payload), (body) => json(body)))
        )
      )
      .handle("bulkReject", ({ payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) => Effect.map(Actions.bulkReject(actor, payload), (body) => json(body)))
        )
      )
  })
)
