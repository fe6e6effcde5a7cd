import { Schema } from "effect"
import { Time } from "./postParts.ts"

// Sign-up and claim links: how an agent gets a key and its human owner a workspace.

const Str = Schema.String

export const SignUpRequest = Schema.Struct({
  email: Str.annotate({ description: "The human owner's real address" }),
  workspaceName: Schema.optional(Str),
  agentName: Schema.optional(Str.annotate({ description: "Name given to the created key, shown on its posts" })),
  locale: Schema.optional(Schema.Literals(["en", "ja"])),
  timeZone: Schema.optional(
    Str.annotate({
      description:
        "The owner's IANA time zone (e.g. Europe/Berlin), for local times and posting schedules; default UTC. The owner can change it in Settings"
    })
  )
}).annotate({ identifier: "SignUpRequest" })

const SignUpWorkspace = Schema.Struct({ id: Str, name: Str, plan: Str, claimed: Schema.Boolean, expiresAt: Time })
const SignUpKey = Schema.Struct({ id: Str, name: Str, prefix: Str, requireApproval: Schema.Boolean })

export const SignUpResponse = Schema.Struct({
  workspace: Schema.NullOr(SignUpWorkspace),
  apiKey: Schema.NullOr(Str).annotate({
    description: "The secret key, shown once; null when the address already has a workspace (202)"
  }),
  key: Schema.NullOr(SignUpKey),
  claimSent: Schema.Boolean,
  claimExpiresAt: Schema.NullOr(Time),
  next: Schema.Array(Str),
  delivery: Str
}).annotate({ identifier: "SignUpResponse" })
export type SignUpResponse = typeof SignUpResponse.Type

export const ClaimLink = Schema.Struct({ claimSent: Schema.Boolean, claimExpiresAt: Time, delivery: Str }).annotate({
  identifier: "ClaimLink"
})
export type ClaimLink = typeof ClaimLink.Type
