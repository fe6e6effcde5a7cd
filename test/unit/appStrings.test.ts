import { describe, expect, it } from "vitest"
import { strings } from "../../hosts/http/pages/assets.ts"

describe("the app's words (strings.json)", () => {
  it("every English word has its Japanese one, and each keeps the same {placeholders}", () => {
    const holes = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    const missing = Object.keys(strings.en).filter((key) => strings.ja[key] === undefined)
    expect(missing).toEqual([])
    const mismatched = Object.keys(strings.en).filter(
      (key) => strings.ja[key] !== undefined && holes(strings.en[key]!).join() !== holes(strings.ja[key]!).join()
    )
    expect(mismatched).toEqual([])
  })

  it("Japanese error words exist only for codes (English ones come from the error catalogue)", () => {
    const extra = Object.keys(strings.ja).filter((key) => strings.en[key] === undefined)
    expect(extra.every((key) => key.startsWith("error."))).toBe(true)
  })
})
