/** Reading posts back from Meta (recovery of a lost answer): which one a lost attempt made. */

/** A lost attempt is looked for among posts made since it started, less this margin for clocks that differ. */
export const CLOCK_SKEW_MS = 2 * 60_000

/** Meta's times ("2026-11-21T10:00:00+0000") as epoch ms; NaN when unreadable. */
export const metaTime = (value: string | undefined) =>
  value === undefined ? Number.NaN : Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"))

/** Meta keeps the text as sent, give or take spaces at the ends and line-ending styles. */
const comparable = (text: string) => text.normalize("NFC").replace(/\r\n/g, "\n").trim()

export const sameText = (shown: string | undefined, sent: string) => comparable(shown ?? "") === comparable(sent)

/** The first item made since `sinceMs` whose text is `text`. */
export const findByText = <A extends { readonly id: string }>(
  items: ReadonlyArray<A>,
  text: string,
  sinceMs: number,
  textOf: (a: A) => string | undefined,
  timeOf: (a: A) => string | undefined
): A | null =>
  items.find((item) => sameText(textOf(item), text) && !(metaTime(timeOf(item)) < sinceMs - CLOCK_SKEW_MS)) ?? null
