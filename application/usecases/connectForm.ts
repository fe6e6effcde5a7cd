import { Effect, Option } from "effect"
import { fail, type HeraldError, invalidFields } from "../../domain/errors.ts"
import { DAY_MS } from "../../domain/time.ts"
import { HeraldConfig } from "../config.ts"
import { Crypto } from "../ports/Crypto.ts"
import { RateLimiter } from "../ports/RateLimiter.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { completeConnect } from "./completeConnect.ts"
import { invalidConnectLink } from "./connectLink.ts"
import { now, rateLimited } from "./common.ts"

/**
 * The one answer to every refusal of a password form: a wrong password, the account's main password
 * and an unknown handle look the same, so the form tells nothing about an account (README "Security").
 */
export const FORM_REFUSED =
  "The network did not accept this handle and app password. Check the handle, and use an app password made for Herald, not the account's own password."

const HOUR_MS = 60 * 60_000

/** What the network said about the credentials themselves (not an outage or its own throttling). */
const isRefusal = (error: HeraldError) => error.code === "validation_failed" || error.code === "upstream_rejected"

/**
 * Herald's own connect form (declared by the network's folder) sent: a few tries per link, then the
 * link is spent; tries an hour per workspace and per client address (429 with Retry-After). Counted
 * before the network is asked, so a flood never reaches it.
 */
export const completeFormConnect = Effect.fn("completeFormConnect")(function* (
  platform: string,
  params: Readonly<Record<string, string>>,
  browser: string | null,
  clientAddress: string
) {
  const crypto = yield* Crypto
  const tokens = yield* TokenRepo
  const limiter = yield* RateLimiter
  const limits = (yield* HeraldConfig).limits
  const at = yield* now
  const stateHash = yield* crypto.sha256(params.state ?? "")
  const link = yield* tokens.find(stateHash, "connect", at)
  if (Option.isNone(link)) return yield* Effect.fail(invalidConnectLink())
  const hourly: ReadonlyArray<readonly [string, number]> = [
    [`connect_form:ws:${link.value.workspaceId}`, limits.connectFormPerWorkspacePerHour],
    [`connect_form:ip:${clientAddress}`, limits.connectFormPerAddressPerHour]
  ]
  for (const [bucket, limit] of hourly) {
    const decision = yield* limiter.hit(bucket, limit, HOUR_MS, at)
    if (!decision.allowed) return yield* Effect.fail(rateLimited(decision.retryAfterMs))
  }
  // A link lives 15 minutes: a day's window counts all its tries.
  const tries = yield* limiter.hit(`connect_form:link:${stateHash}`, limits.connectFormTriesPerLink, DAY_MS, at)
  if (!tries.allowed) {
    yield* tokens.consume(stateHash, "connect", at)
    return yield* Effect.fail(
      fail(
        "validation_failed",
        { fields: ["state"] },
        `This connect link has had its ${limits.connectFormTriesPerLink} tries and is spent; ask for a new one with GET /connect/${platform}.`
      )
    )
  }
  return yield* completeConnect(platform, params, browser).pipe(
    Effect.mapError((error) =>
      // Only a form with a password hides which field was wrong: the other forms' fields guess no one's password.
      "appPassword" in params &&
      isRefusal(error) &&
      !(error.details as { fields?: ReadonlyArray<string> } | undefined)?.fields?.includes("state")
        ? invalidFields(["handle", "appPassword"], FORM_REFUSED)
        : error
    )
  )
})
