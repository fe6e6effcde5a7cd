import type { ContentOverride, Overrides } from "./contract/postRequest.ts"
import { isWellFormedId } from "./ids.ts"
import { requestLimits } from "./networkRules.ts"
import { type Platform, platforms } from "./platforms.ts"
import { checkText, describeTextProblem } from "./text.ts"

/** A post's per-network overrides, keyed by platform, as the request gives them (blank first comments as null). */
export type { ContentOverride, Overrides } from "./contract/postRequest.ts"

/** The fields an override may replace. */
export const overridableFields = ["content", "mediaIds", "thread", "firstComment"] as const
export type OverridableField = (typeof overridableFields)[number]

/** What one target publishes: the post's fields with its network's override applied. */
export interface TargetContent {
  readonly content: string
  readonly mediaIds: ReadonlyArray<string>
  readonly thread: ReadonlyArray<string>
  readonly firstComment: string | null
}

/** The target's final content on `platform`. */
export const contentFor = (
  post: TargetContent & { readonly overrides: Overrides },
  platform: Platform
): TargetContent => {
  const override = post.overrides[platform] ?? {}
  return {
    content: override.content ?? post.content,
    mediaIds: override.mediaIds ?? post.mediaIds,
    thread: override.thread ?? post.thread,
    firstComment: override.firstComment === undefined ? post.firstComment : override.firstComment
  }
}

/** The request field a target's value comes from: `overrides.x.content` when X's override gives it, else `content`. */
export const sourceField = (overrides: Overrides, platform: Platform, field: OverridableField): string =>
  overrides[platform]?.[field] === undefined ? field : `overrides.${platform}.${field}`

/** The overrides for these platforms only, in the platforms' own order (so equal overrides store alike). */
export const overridesFor = (overrides: Overrides, targeted: ReadonlyArray<Platform>): Overrides =>
  Object.fromEntries(
    platforms.filter((p) => targeted.includes(p) && overrides[p] !== undefined).map((p) => [p, overrides[p]])
  )

/** The platforms overridden but not targeted: their overrides are ignored. */
export const untargetedOverrides = (overrides: Overrides, targeted: ReadonlyArray<Platform>): ReadonlyArray<Platform> =>
  platforms.filter((p) => overrides[p] !== undefined && !targeted.includes(p))

/** Every media id the overrides name. */
export const overrideMediaIds = (overrides: Overrides): ReadonlyArray<string> =>
  Object.values(overrides).flatMap((o) => o?.mediaIds ?? [])

/** A problem with one field of an override: the field as the request names it, and what is wrong when there is more to say. */
export interface OverrideProblem {
  readonly field: string
  readonly note?: string | undefined
}

/**
 * The rules of the request's overrides beyond their shape, like the post's own fields': texts within
 * the prose rules, thread replies not blank, media ids well formed; a blank first comment is none.
 * Returns the overrides as the post keeps them, and the problems.
 */
export const checkOverrides = (
  overrides: Overrides
): { readonly overrides: Overrides; readonly problems: ReadonlyArray<OverrideProblem> } => {
  const problems: Array<OverrideProblem> = []
  const text = (field: string, value: string, max: number) => {
    const problem = checkText(value, { kind: "prose", max })
    if (problem !== null) problems.push({ field, note: describeTextProblem(field, problem) })
  }
  const kept: Record<string, ContentOverride> = {}
  for (const platform of platforms) {
    const override = overrides[platform]
    if (override === undefined) continue
    const at = (field: OverridableField) => `overrides.${platform}.${field}`
    if (override.content !== undefined) text(at("content"), override.content, requestLimits.text)
    if (override.mediaIds?.some((id) => !isWellFormedId(id))) problems.push({ field: at("mediaIds") })
    if (override.thread?.some((t) => t.trim() === ""))
      problems.push({ field: at("thread"), note: `${at("thread")} takes non-empty texts.` })
    override.thread?.forEach((t, i) => text(`${at("thread")}[${i}]`, t, requestLimits.text))
    const given = override.firstComment
    const comment = given === undefined ? undefined : given === null || given.trim() === "" ? null : given
    if (comment) text(at("firstComment"), comment, requestLimits.firstComment)
    kept[platform] = comment === undefined ? override : { ...override, firstComment: comment }
  }
  return { overrides: kept, problems }
}
