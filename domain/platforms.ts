/** The networks Herald publishes to. `sandbox` is Herald's own built-in network for trying the flow. */
export const platforms = [
  "x",
  "linkedin",
  "instagram",
  "facebook",
  "threads",
  "bluesky",
  "tiktok",
  "youtube",
  "pinterest",
  "sandbox"
] as const

export type Platform = (typeof platforms)[number]

export const isPlatform = (value: string): value is Platform => (platforms as ReadonlyArray<string>).includes(value)

/** Display names, for messages. */
export const platformNames: Record<Platform, string> = {
  x: "X",
  linkedin: "LinkedIn",
  instagram: "Instagram",
  facebook: "Facebook",
  threads: "Threads",
  bluesky: "Bluesky",
  tiktok: "TikTok",
  youtube: "YouTube",
  pinterest: "Pinterest",
  sandbox: "Sandbox"
}
