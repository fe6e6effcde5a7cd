import { describe, expect, it } from "vitest"
import { networkOptionSchemas, networkOptionsField } from "../../domain/contract/postRequest.ts"
import { strings } from "../../hosts/http/pages/assets.ts"
import {
  fieldPaths,
  inputHints,
  networkOptionForms,
  type OptionField,
  shownWhen
} from "../../hosts/http/pages/networkOptionForms.ts"

// The composer's per-network forms, derived from the contract's schemas (no network's fields written in the page).

const find = (field: string) => networkOptionForms.find((f) => f.field === field)!
const named = (fields: ReadonlyArray<OptionField>, name: string) => fields.find((f) => f.name === name)!

describe("the composer's per-network option forms", () => {
  it("every network with its own object has a form, under the request's field, with every field of its schema", () => {
    expect(networkOptionForms.map((f) => [f.platform, f.field])).toEqual(Object.entries(networkOptionsField))
    for (const form of networkOptionForms)
      expect(form.fields.map((f) => f.name)).toEqual(
        Object.keys((networkOptionSchemas as Record<string, { fields: object }>)[form.field]!.fields)
      )
  })

  it("each field's kind, choices and requiredness come from its schema", () => {
    const reddit = find("reddit").fields
    expect(named(reddit, "subreddit")).toEqual({ name: "subreddit", kind: "text", required: true, input: "boards" })
    expect(named(reddit, "kind")).toEqual({
      name: "kind",
      kind: "choice",
      required: false,
      values: ["self", "link", "image"]
    })
    expect(named(find("youtube").fields, "tags")).toEqual({
      name: "tags",
      kind: "list",
      required: false,
      maxItems: 500
    })
    expect(named(find("tiktok").fields, "draft")).toEqual({ name: "draft", kind: "toggle", required: false })
    expect(find("googleBusiness").platform).toBe("google_business")
    const event = named(find("googleBusiness").fields, "event")
    expect(event.kind).toBe("group")
    if (event.kind !== "group") return
    expect(event.fields.filter((f) => f.required).map((f) => f.name)).toEqual(["title", "startDate", "endDate"])
    expect(named(event.fields, "startTime")).toMatchObject({ kind: "text", input: "time" })
  })

  it("every hint names a field that exists, so a renamed field cannot leave one behind", () => {
    const paths = networkOptionForms.flatMap((form) => fieldPaths(form.field, form.fields))
    expect(Object.keys(inputHints).filter((path) => !paths.includes(path))).toEqual([])
  })

  it("each 'shown when' rule names a field that exists and a choice whose values it lists, and rides on its field", () => {
    const all = networkOptionForms.flatMap((form) => {
      const walk = (prefix: string, fields: ReadonlyArray<OptionField>): ReadonlyArray<[string, OptionField]> =>
        fields.flatMap((f) => [
          [`${prefix}.${f.name}`, f] as [string, OptionField],
          ...(f.kind === "group" ? walk(`${prefix}.${f.name}`, f.fields) : [])
        ])
      return walk(form.field, form.fields)
    })
    const byPath = new Map(all)
    for (const [path, rule] of Object.entries(shownWhen)) {
      expect(byPath.get(path)?.shownWhen).toEqual(rule)
      const decider = byPath.get(rule.path)
      expect(decider?.kind).toBe("choice")
      if (decider?.kind !== "choice") continue
      expect(rule.in.filter((v) => v !== "" && !decider.values.includes(v))).toEqual([])
    }
    // An offer's fields on an OFFER only; the button never on one.
    const google = find("googleBusiness").fields
    expect(named(google, "offer").shownWhen?.in).toEqual(["OFFER"])
    expect(named(google, "callToAction").shownWhen?.in).not.toContain("OFFER")
  })

  it("every field and every choice has its words in English and Japanese", () => {
    const keys = networkOptionForms.flatMap((form) => {
      const walk = (prefix: string, fields: ReadonlyArray<OptionField>): ReadonlyArray<string> =>
        fields.flatMap((f) => {
          const key = `opt.${prefix}.${f.name}`
          if (f.kind === "group") return [key, ...walk(`${prefix}.${f.name}`, f.fields)]
          if (f.kind === "choice") return [key, ...f.values.map((v) => `${key}.${v}`)]
          return [key]
        })
      return walk(form.field, form.fields)
    })
    expect(keys.length).toBeGreaterThan(50)
    expect(keys.filter((k) => strings.en[k] === undefined || strings.ja[k] === undefined)).toEqual([])
  })
})
