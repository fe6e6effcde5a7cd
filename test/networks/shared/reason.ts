import { Cause, Exit, Option } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"

/** A PublishError as plain fields, its reason by tag: what a test compares with an object. */
export const viewOf = (e: PublishError) => ({
  code: e.code,
  message: e.message,
  retryable: e.retryable,
  retryAfterMs: e.retryAfterMs,
  reason: e.reason._tag
})

/** Whether a call ended with an answer lost after sending: OutcomeUnknown, for the pipeline to ask the network. */
export const outcomeUnknown = <A>(exit: Exit.Exit<A, PublishError>) =>
  Exit.isFailure(exit) && Option.exists(Cause.findErrorOption(exit.cause), (e) => e.reason._tag === "OutcomeUnknown")
