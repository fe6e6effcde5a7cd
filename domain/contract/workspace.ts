import { Schema } from "effect"
import { approvalMailChoices, isTimeZone } from "../workspace.ts"

// A signed-in person's change to the workspace's settings (PATCH /workspace); fields left out stay.

export const UpdateWorkspaceRequest = Schema.Struct({
  name: Schema.optional(Schema.String.annotate({ description: "One line of visible text, 1-100 characters" })),
  locale: Schema.optional(Schema.Literals(["en", "ja"])),
  timeZone: Schema.optional(
    Schema.String.check(
      Schema.makeFilter((zone: string) => isTimeZone(zone) || "timeZone is an IANA time zone, such as Asia/Tokyo.")
    ).annotate({
      description: "An IANA time zone, such as Asia/Tokyo"
    })
  ),
  approvalMail: Schema.optional(
    Schema.Literals(approvalMailChoices).annotate({ description: "How the owner hears of posts waiting for approval" })
  )
}).annotate({ identifier: "UpdateWorkspaceRequest" })
