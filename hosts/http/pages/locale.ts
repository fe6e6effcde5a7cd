import type { Locale } from "../../../domain/workspace.ts"

/** The browser's first choice among Herald's languages (Accept-Language, by q), English otherwise. */
export const preferredLocale = (acceptLanguage: string | undefined): Locale => {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(";")
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag ?? "", q: q === undefined ? 1 : Number(q) }
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const { tag } of ranked) {
    if (tag === "ja" || tag.startsWith("ja-")) return "ja"
    if (tag === "en" || tag.startsWith("en-")) return "en"
  }
  return "en"
}
