import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DryRunResult, EditDryRunResult } from "../../domain/contract/dryRun.ts"
import {
  ApproveRequest,
  BulkRequest,
  BulkResult,
  FirstCommentRetryRequest,
  PostEnvelope,
  PostList,
  RejectRequest,
  RemovedPost,
  ReplayedPost,
  RescheduleRequest
} from "../../domain/contract/post.ts"
import { CreatePostRequest, requestParseOptions, UpdatePostRequest } from "../../domain/contract/postRequest.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

// Posts: create (now, scheduled, dry run), read, edit, approve or reject, cancel, remove, in bulk.

const e = apiErrors
const common = [400, 401, 403, 404, 409]
const Str = Schema.String
const opt = Schema.optional
const id = { id: Str }

export class PostsGroup extends HttpApiGroup.make("posts")
  .add(
    // Decoded by the schema itself: its JSON codec only documents the capped arrays (contract/postRequest.ts).
    HttpApiEndpoint.post("create", "/posts", {
      disableCodecs: true,
      payload: CreatePostRequest,
      headers: { "idempotency-key": Schema.optional(Schema.String) },
      success: [PostEnvelope.pipe(HttpApiSchema.status(201)), ReplayedPost, DryRunResult],
      error: e(...common, 422)
    })
      .annotate(OpenApi.Summary, "Create a post (now, scheduled, or a dry run)")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.get("list", "/posts", {
      query: { status: opt(Str), limit: opt(Str), cursor: opt(Str) },
      success: PostList,
      error: e(400, 401)
    }).annotate(OpenApi.Summary, "List posts, newest first"),
    HttpApiEndpoint.get("get", "/posts/:id", { params: id, success: PostEnvelope, error: e(401, 404) }).annotate(
      OpenApi.Summary,
      "Get a post"
    ),
    HttpApiEndpoint.patch("update", "/posts/:id", {
      disableCodecs: true,
      params: id,
      payload: UpdatePostRequest,
      success: [PostEnvelope, EditDryRunResult],
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Edit a post before it goes out")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        "Changes a post in needs_approval or scheduled (content, media, thread, first comment, poll, cover, per-network options and overrides, accounts), checked by the create's rules. A key edits only its own posts (403 edit_not_own_post); a key's edit of an approved post sends it back to needs_approval; a person's keeps it approved. A post publishing or out answers 409 post_not_editable. dryRun: true answers what would change, per target. Nothing is sent to a network."
      ),
    HttpApiEndpoint.delete("takeDownTarget", "/posts/:id/targets/:accountId", {
      params: { id: Str, accountId: Str },
      success: PostEnvelope.pipe(HttpApiSchema.status(202)),
      error: e(401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Take a published target down from its network")
      .annotate(
        OpenApi.Description,
        "Removes the post from the account's network, with its thread and first comment, where the network's API allows (409 unpublish_unsupported names the network: Instagram, TikTok). Answers 202 at once: target.deletion says deleting, then deleted once the network confirmed (target.deleted event), or failed with why. Asking again is harmless. A key takes down only its own posts; an asks-first key's request waits for a person (awaiting_approval), whose own DELETE of the target confirms it."
      ),
    HttpApiEndpoint.delete("takeDownPost", "/posts/:id/targets", {
      params: id,
      success: PostEnvelope.pipe(HttpApiSchema.status(202)),
      error: e(401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Take every published target of a post down")
      .annotate(
        OpenApi.Description,
        "DELETE /posts/{id}/targets/{accountId} for each target on a network, all or none: when one of their networks cannot remove posts, nothing is asked and 409 unpublish_unsupported names it."
      ),
    // Their bodies are optional: an empty body decodes as null, so a bare POST approves or rejects.
    HttpApiEndpoint.post("approve", "/posts/:id/approve", {
      params: id,
      payload: [ApproveRequest, Schema.Null],
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Approve a post waiting for approval")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        'Optional body {"version": "..."} (from GET /approvals): a post changed since that version is refused with 409 post_changed, details.post being the new one.'
      ),
    HttpApiEndpoint.post("reject", "/posts/:id/reject", {
      params: id,
      payload: [RejectRequest, Schema.Null],
      success: RemovedPost,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Reject a post waiting for approval")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        'Optional body {"reason": "..."} (at most 1000 characters): the agent reads it in the post.rejected event (GET /events?postId=...).'
      ),
    HttpApiEndpoint.post("cancel", "/posts/:id/cancel", {
      params: id,
      success: RemovedPost,
      error: e(401, 403, 404, 409)
    }).annotate(OpenApi.Summary, "Cancel a waiting or scheduled post"),
    HttpApiEndpoint.post("reschedule", "/posts/:id/reschedule", {
      params: id,
      payload: RescheduleRequest,
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Move a post to another time")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("retry", "/posts/:id/retry", {
      params: id,
      success: PostEnvelope,
      error: e(401, 403, 404, 409)
    }).annotate(OpenApi.Summary, "Retry a failed post"),
    HttpApiEndpoint.post("retryFirstComment", "/posts/:id/first-comment/retry", {
      params: id,
      payload: FirstCommentRetryRequest,
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Retry a failed first comment")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("bulkApprove", "/posts/bulk-approve", {
      payload: BulkRequest,
      success: BulkResult,
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Approve several posts")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("bulkReject", "/posts/bulk-reject", {
      payload: BulkRequest,
      success: BulkResult,
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Reject several posts")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Posts to one or more accounts: now, scheduled or as a dry run; an asks-first key's posts wait for a person's approval."
  ) {}
