import { Effect } from "effect"
import { createPost } from "../../../application/usecases/posts/create.ts"
import type { Actor } from "../../../domain/apiKey.ts"
import type { CreatePostBody } from "../../../domain/contract/postRequest.ts"

/** POST /posts once authenticated and decoded: the router's handler and the fast path answer with it. */
export const answerCreatePost = (actor: Actor, body: CreatePostBody, idempotencyKey: string | null) =>
  Effect.map(createPost(actor, body, idempotencyKey), (result) => ({
    status: result.kind === "created" ? 201 : 200,
    body: result.body
  }))
