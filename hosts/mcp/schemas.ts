import { z } from "zod"
import { platforms } from "../../domain/platforms.ts"

// Output schemas describe what the use cases return. They are loose objects: a field added to a
// view later must not make clients reject the result.

const utc = (what: string) => z.string().describe(`${what}: ISO 8601 UTC ending in Z`)
const statusText = "needs_approval | scheduled | publishing | published | failed"

export const accountOut = z.looseObject({
  id: z.string().describe("Use it in create_post's accountIds"),
  platform: z.string().describe(`One of ${platforms.join(", ")}`),
  name: z.string(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  status: z.string().describe("connected | needs_reconnection"),
  connectedAt: utc("When it was connected")
})

export const targetOut = z.looseObject({
  accountId: z.string(),
  platform: z.string(),
  status: z.string().describe(`This account's own status: ${statusText}`),
  externalId: z.string().nullable(),
  url: z.string().nullable().describe("Link to the published post on the network"),
  publishedAt: z.string().nullable(),
  error: z.looseObject({ code: z.string(), message: z.string(), retryable: z.boolean() }).nullable()
})

export const postOut = z.looseObject({
  id: z.string(),
  status: z.string().describe(`${statusText}; needs_approval waits for a person in the Herald app`),
  content: z.string(),
  mediaIds: z.array(z.string()),
  scheduledFor: z.string().nullable().describe("UTC with Z, or null for now"),
  requireApproval: z.boolean(),
  createdBy: z.looseObject({ kind: z.string(), id: z.string(), name: z.string() }),
  createdAt: utc("Created"),
  updatedAt: utc("Last change"),
  publishedAt: z.string().nullable(),
  targets: z.array(targetOut)
})

export const postResultOut = z.looseObject({ post: postOut })

export const removedOut = (flag: "cancelled" | "rejected") => z.looseObject({ id: z.string(), [flag]: z.literal(true) })
