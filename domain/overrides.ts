import { type Platform, platforms } from "./platforms.ts"

/** What a post says differently on one network: each field given replaces the post's own there. */
export interface ContentOverride {
  readonly content?: string | undefined
  readonly mediaIds?: ReadonlyArray<string> | undefined
  readonly thread?: ReadonlyArray<string> | undefined
  /** null: no first comment on this network. */
  readonly firstComment?: string | null | undefined
}

/** A post's per-network overrides, keyed by platform. */
export type Overrides = { readonly [P in Platform]?: ContentOverride }

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
export const contentFor = (post: TargetContent & { readonly overrides: Overrides }, platform: Platform): TargetContent => {
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
  Object.fromEntries(platforms.filter((p) => targeted.includes(p) && overrides[p] !== undefined).map((p) => [p, overrides[p]]))

/** The platforms overridden but not targeted: their overrides are ignored. */
export const untargetedOverrides = (overrides: Overrides, targeted: ReadonlyArray<Platform>): ReadonlyArray<Platform> =>
  platforms.filter((p) => overrides[p] !== undefined && !targeted.includes(p))

/** Every media id the overrides name. */
export const overrideMediaIds = (overrides: Overrides): ReadonlyArray<string> => Object.values(overrides).flatMap((o) => o?.mediaIds ?? [])
