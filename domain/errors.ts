import { Schema } from "effect"
import type { ErrorEnvelope } from "./contract/errors.ts"

/** One row of the error catalogue: how a code is shown to callers. */
export interface CatalogueEntry {
  readonly status: number
  readonly retryable: boolean
  readonly message: string
  readonly hint: string
}

const entry = (status: number, retryable: boolean, message: string, hint: string): CatalogueEntry => ({
  status,
  retryable,
  message,
  hint
})

/** The single source of truth for every error code Herald returns (REST and MCP alike). */
export const catalogue = {
  // Requests in general
  validation_failed: entry(
    400,
    false,
    "The request is missing a field or a field is malformed.",
    "Fix the fields listed in details.fields and send the request again."
  ),
  invalid_json: entry(
    400,
    false,
    "The request body is not valid JSON.",
    "Send a JSON object with Content-Type: application/json."
  ),
  unsupported_content_type: entry(
    415,
    false,
    "This endpoint does not accept that Content-Type.",
    "Send application/json (or multipart/form-data for POST /media)."
  ),
  not_found: entry(
    404,
    false,
    "There is no such endpoint.",
    "Check the path against the API reference at /api/v1/docs."
  ),
  payload_too_large: entry(
    413,
    false,
    "The request body is over this endpoint's limit.",
    "Send a smaller body: details.limitBytes is this endpoint's limit. Files go to POST /media (up to 100 MB)."
  ),
  malformed_request: entry(
    400,
    false,
    "The request is not valid HTTP.",
    "Check the request line, the headers (no control characters in values) and the chunked encoding of the body."
  ),
  request_timeout: entry(
    408,
    true,
    "The request took too long to arrive.",
    "Send the whole request without pausing, then retry."
  ),
  headers_too_large: entry(
    431,
    false,
    "The request's headers are over the server's limit.",
    "Send fewer or shorter headers (cookies included)."
  ),
  method_not_allowed: entry(
    405,
    false,
    "This endpoint does not accept that HTTP method.",
    "Check the method against the API reference at /api/v1/docs."
  ),
  internal_error: entry(
    500,
    true,
    "Something went wrong on our side.",
    "Retry in a moment; if it persists, report the requestId in details."
  ),
  unauthorized: entry(
    401,
    false,
    "The API key is missing or wrong.",
    "Send Authorization: Bearer <API key>, or sign in again."
  ),
  csrf_failed: entry(403, false, "The request lacks a valid CSRF token.", "Reload the page and try again."),
  rate_limited: entry(
    429,
    true,
    "Too many requests.",
    "Wait the number of seconds in the Retry-After header, then try again."
  ),
  // Sign-up and claiming
  email_not_allowed: entry(
    400,
    false,
    "That e-mail address cannot own a workspace.",
    "Use the human owner's real address, not a disposable, example or placeholder one."
  ),
  agent_signup_closed: entry(
    403,
    false,
    "Sign-up is turned off on this server.",
    "Ask the server's operator for an account or an API key."
  ),
  signup_capacity: entry(503, true, "Today's sign-up capacity is used up.", "Try again tomorrow (UTC)."),
  claim_link_invalid: entry(
    400,
    false,
    "The claim link is invalid, already used or expired.",
    "Ask for a fresh link with POST /claim-link."
  ),
  connect_workspace_mismatch: entry(
    403,
    false,
    "This connect link is for another workspace than the one this browser is signed in to.",
    "Sign out first, or ask for a connect link in the workspace you are signed in to."
  ),
  connect_link_not_continued: entry(
    400,
    false,
    "This connect link was not continued from Herald's page in this browser.",
    "Open the connect link you were given, check the workspace it names, and press Continue."
  ),
  signin_link_invalid: entry(
    400,
    false,
    "The sign-in link is invalid, already used or expired.",
    "Ask for a fresh sign-in link."
  ),
  already_claimed: entry(409, false, "This workspace has already been claimed.", "Sign in to the workspace instead."),
  workspace_not_found: entry(
    404,
    false,
    "There is no such workspace.",
    "Sign up again; unclaimed workspaces are deleted after 7 days."
  ),
  // Keys and people
  approval_requires_human: entry(
    403,
    false,
    "Only a signed-in person can do this.",
    "Ask the workspace owner to do it in the Herald app."
  ),
  reject_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may reject only its own posts; ask the workspace owner."
  ),
  retry_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may retry only its own posts; ask the workspace owner."
  ),
  cancel_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may cancel only its own posts; ask the workspace owner."
  ),
  reschedule_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may reschedule only its own posts; ask the workspace owner."
  ),
  edit_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may edit only its own posts; ask the workspace owner."
  ),
  takedown_not_own_post: entry(
    403,
    false,
    "This key did not create that post.",
    "A key may take down only its own posts; ask the workspace owner."
  ),
  // Accounts
  account_not_found: entry(
    404,
    false,
    "An account id is not in this workspace.",
    "List connected accounts with GET /accounts and use their ids."
  ),
  no_accounts_connected: entry(
    409,
    false,
    "This workspace has no connected accounts.",
    "Connect one: GET /connect/{platform} returns a URL to open in a browser."
  ),
  account_needs_reconnection: entry(
    409,
    false,
    "An account must be reconnected before it can post.",
    "Open GET /connect/{platform} again to reconnect it."
  ),
  account_disconnected: entry(
    409,
    false,
    "The account was disconnected before the post went out.",
    "Connect the account again and retry the post, or remove it from the post."
  ),
  platform_unavailable: entry(
    404,
    false,
    "That network is not available on this server.",
    "Use one of the platforms listed in details.available."
  ),
  boards_unsupported: entry(
    400,
    false,
    "This account's network has no boards.",
    "Boards are Pinterest's: list them for a Pinterest account."
  ),
  // Media
  unsupported_media_type: entry(
    400,
    false,
    "The file is not an accepted image or video.",
    "Upload JPEG, PNG, GIF or WebP images, or MP4, MOV, M4V, WebM, AVI or MPEG videos."
  ),
  media_unreadable: entry(
    400,
    false,
    "The file looks truncated or damaged, or is too large to decode.",
    "details.reason says why (truncated, too_many_pixels, decoded_size_over_budget, too_many_frames...): upload a whole file, or a smaller image or video."
  ),
  file_too_large: entry(
    413,
    false,
    "The file is over the size limit.",
    "Upload a smaller file: 100 MB over REST, 10 MB over MCP."
  ),
  claim_required: entry(
    403,
    false,
    "An unclaimed workspace can hold only 10 uploads.",
    "Ask the human owner to claim the workspace from the e-mailed link."
  ),
  media_not_found: entry(
    404,
    false,
    "A media id is not in this workspace.",
    "Upload the file with POST /media and use the returned id."
  ),
  media_expired: entry(409, false, "An upload is older than 7 days.", "Upload the file again and use the new id."),
  preview_not_found: entry(404, false, "This upload has no preview.", "Use the media url instead."),
  file_link_invalid: entry(
    403,
    false,
    "This file link is not one Herald signed.",
    "Use the media url exactly as Herald gave it (GET /media/{id} gives a fresh one)."
  ),
  file_link_expired: entry(
    410,
    false,
    "This file link has expired.",
    "Ask for a fresh link: GET /media/{id} returns the upload's current url."
  ),
  upstream_storage_failed: entry(502, true, "The storage provider failed.", "Retry the request in a moment."),
  upstream_storage_unavailable: entry(
    503,
    true,
    "The storage provider is unavailable.",
    "Retry the request in a moment."
  ),
  // Posts
  invalid_date: entry(
    400,
    false,
    "scheduledFor is not a valid ISO 8601 time with an offset.",
    "Send a time like 2026-12-01T09:00:00+09:00 or 2026-12-01T00:00:00Z."
  ),
  scheduled_in_past: entry(
    400,
    false,
    "scheduledFor is in the past.",
    "Send a future time, or omit scheduledFor to post now."
  ),
  scheduled_too_far: entry(400, false, "scheduledFor is a year or more ahead.", "Schedule less than one year ahead."),
  local_time_skipped: entry(
    400,
    false,
    "That local time does not exist in its time zone: a daylight-saving change skips it.",
    "Send another time; details.suggestion is the instant just past the skipped hour, which you may send as it is."
  ),
  unknown_time_zone: entry(
    400,
    false,
    "The time zone is not an IANA time zone this server knows.",
    "Send a name such as Europe/Berlin, America/New_York or UTC."
  ),
  // Posting queues and batches
  queue_not_set_up: entry(
    409,
    false,
    "The post's accounts do not share a posting schedule, so there is no queue to join.",
    "Put the accounts in one schedule (PUT /schedules), or send scheduledFor instead of queue."
  ),
  queue_full: entry(
    409,
    false,
    "The queue has no free slot within the next year.",
    "Add slots to the schedule (PUT /schedules), or send scheduledFor instead of queue."
  ),
  schedule_not_found: entry(
    404,
    false,
    "There is no schedule with this id in the workspace.",
    "List schedules with GET /schedules."
  ),
  batch_rejected: entry(
    400,
    false,
    "Rows of an all-or-nothing batch were refused, so nothing was stored.",
    "Fix the rows listed in details.rows (each with its own error) and send the batch again, or send atomic: false to store the valid rows."
  ),
  media_required: entry(
    400,
    false,
    "A target network needs media.",
    "Add mediaIds, or remove the accounts listed in details.accountIds."
  ),
  thread_unsupported: entry(
    400,
    false,
    "A target network cannot take a thread.",
    "Threads go to X, Threads and Bluesky; remove thread or those accounts."
  ),
  poll_unsupported: entry(
    400,
    false,
    "A target network cannot take this poll.",
    "Polls go to X or LinkedIn and never with media."
  ),
  first_comment_unsupported: entry(
    400,
    false,
    "A target network cannot take a first comment.",
    "Remove firstComment or the accounts listed in details.accountIds."
  ),
  cover_unsupported: entry(
    400,
    false,
    "A target network cannot take a video cover.",
    "Remove cover or the accounts listed in details.accountIds."
  ),
  tiktok_privacy_conflict: entry(
    400,
    false,
    "The TikTok settings conflict with what the creator allows.",
    "Choose a privacy level the creator's account allows."
  ),
  tiktok_ai_unsupported: entry(
    400,
    false,
    "The AI-generated label applies to TikTok videos only.",
    "Remove tiktokAiGenerated or post a video to TikTok."
  ),
  upstream_rejected: entry(
    400,
    false,
    "The network refused the content.",
    "Change the content as details.reason says and try again."
  ),
  plan_feature_unavailable: entry(
    403,
    false,
    "This feature is not in the workspace's plan.",
    "Upgrade the plan or leave the feature out."
  ),
  post_limit_reached: entry(
    403,
    false,
    "The workspace has used this month's posts.",
    "Wait for the next calendar month (UTC) or upgrade the plan. Dry runs still work."
  ),
  duplicate_content: entry(
    409,
    false,
    "The same text was just posted to that account.",
    "Change the text before posting again."
  ),
  tiktok_cannot_post: entry(409, true, "TikTok says the creator cannot post now.", "Try again later."),
  idempotency_key_reused: entry(
    422,
    false,
    "This Idempotency-Key was used with a different body.",
    "Use a new Idempotency-Key for a different post."
  ),
  post_not_found: entry(404, false, "There is no post with this id in the workspace.", "List posts with GET /posts."),
  approval_link_invalid: entry(
    400,
    false,
    "This approval link is invalid, already used or expired.",
    "Open the app's approval queue (/app): every waiting post is there, as each network will show it."
  ),
  post_changed: entry(
    409,
    false,
    "The post changed after you looked at it; the approval was not applied.",
    "Look at the post again (details.post is the new version) and approve that one if you still agree."
  ),
  post_state_conflict: entry(
    409,
    false,
    "The post is not in a state that allows this action.",
    "Read the post with GET /posts/{id}; details.status says where it is."
  ),
  post_not_editable: entry(
    409,
    false,
    "The post is already going out (or out): it can no longer be edited.",
    "Only a post waiting for approval or scheduled can be edited (details.status says where this one is). Take a published target down with DELETE /posts/{id}/targets/{accountId}."
  ),
  target_not_found: entry(
    404,
    false,
    "The post has no target for that account.",
    "Read the post with GET /posts/{id}: its targets list the account ids."
  ),
  target_not_published: entry(
    409,
    false,
    "That target is not published: there is nothing on the network to take down.",
    "A post that has not gone out yet is cancelled instead (POST /posts/{id}/cancel)."
  ),
  unpublish_unsupported: entry(
    409,
    false,
    "This network's API does not let an app remove a post.",
    "Remove it in the network's own app (details.platforms names the network)."
  ),
  first_comment_not_failed: entry(
    409,
    false,
    "The post has no failed first comment to retry.",
    "Read the post; only a failed first comment can be retried."
  ),
  publish_outcome_unknown: entry(
    409,
    false,
    "Herald could not tell whether the network received the post.",
    "Check the account on the network, then retry the post if it is missing."
  ),
  upstream_unavailable: entry(503, true, "The network is unavailable.", "Herald retries by itself; nothing to do now."),
  upstream_processing: entry(
    503,
    true,
    "The network is still processing the media.",
    "Herald checks again by itself; nothing to do now."
  ),
  // Webhooks
  webhook_url_refused: entry(
    400,
    false,
    "Webhooks cannot be sent to that URL.",
    "Use a public https URL; details.reason says what is wrong with this one."
  ),
  webhook_not_found: entry(
    404,
    false,
    "There is no webhook with this id in the workspace.",
    "List webhooks with GET /webhooks."
  ),
  webhook_limit_reached: entry(
    409,
    false,
    "The workspace has as many webhooks as it may have.",
    "Delete one (DELETE /webhooks/{id}), or subscribe one endpoint to more event types."
  ),
  delivery_not_found: entry(
    404,
    false,
    "There is no such delivery for this webhook.",
    "List deliveries with GET /webhooks/{id}/deliveries."
  )
} as const satisfies Record<string, CatalogueEntry>

export type ErrorCode = keyof typeof catalogue
export const errorCodes = Object.keys(catalogue) as ReadonlyArray<ErrorCode>
export const ErrorCode = Schema.Literals(errorCodes)

/** Details are JSON: field lists, limits, retry times. */
export type ErrorDetails = { readonly [key: string]: unknown }

/**
 * The one domain error. The code picks status, hint and retryable from the catalogue;
 * message and details may refine it for this occurrence.
 */
export class HeraldError extends Schema.TaggedError<HeraldError>()("HeraldError", {
  code: ErrorCode,
  detail: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
}) {}

/** The text shown to callers: the occurrence's own detail, else the catalogue's message. */
export const messageOf = (error: HeraldError): string => error.detail ?? catalogue[error.code].message

export const fail = (code: ErrorCode, details?: ErrorDetails, detail?: string): HeraldError =>
  new HeraldError({ code, ...(details ? { details: { ...details } } : {}), ...(detail ? { detail } : {}) })

export const invalidFields = (fields: ReadonlyArray<string>, detail?: string): HeraldError =>
  fail("validation_failed", { fields: [...new Set(fields)] }, detail)

export const toEnvelope = (error: HeraldError): { status: number; body: ErrorEnvelope } => {
  const row: CatalogueEntry = catalogue[error.code]
  return {
    status: row.status,
    body: {
      error: {
        code: error.code,
        message: messageOf(error),
        hint: row.hint,
        retryable: row.retryable,
        ...(error.details ? { details: error.details } : {})
      }
    }
  }
}
