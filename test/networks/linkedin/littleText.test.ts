import { assert, describe, it } from "vitest"
import { toLittleText } from "../../../adapters/networks/linkedin/littleText.ts"
import { renderLittleText } from "./fakeLinkedIn.ts"

describe("LinkedIn's little text", () => {
  it("escapes every reserved character, so LinkedIn shows the text whole", () => {
    const text = String.raw`Costs (net) are <10% \ [see] *this* _one_ ~ok~ | {x} @bob`
    const sent = toLittleText(text)
    assert.strictEqual(sent, String.raw`Costs \(net\) are \<10% \\ \[see\] \*this\* \_one\_ \~ok\~ \| \{x\} \@bob`)
    assert.strictEqual(renderLittleText(sent).rendered, text)
    // Unescaped, LinkedIn cuts the text at the first reserved character.
    assert.strictEqual(renderLittleText(text).rendered, "Costs ")
  })

  it("#tags become hashtag templates; a # inside a word or a link stays text", () => {
    const text = "Launch day #Herald #open_source! See https://example.org/a#top or C#"
    const sent = toLittleText(text)
    assert.strictEqual(
      sent,
      String.raw`Launch day {hashtag|\#|Herald} {hashtag|\#|open\_source}! See https://example.org/a\#top or C\#`
    )
    const shown = renderLittleText(sent)
    assert.strictEqual(shown.rendered, text)
    assert.deepStrictEqual(shown.hashtags, ["Herald", "open_source"])
  })

  it("leaves emoji, accents and line breaks alone", () => {
    const text = "Grüße 👋🏽\nzweite Zeile #Straße"
    assert.strictEqual(renderLittleText(toLittleText(text)).rendered, text)
    assert.deepStrictEqual(renderLittleText(toLittleText(text)).hashtags, ["Straße"])
  })
})
