import { Schema } from "effect"
import { networkOptionSchemas, networkOptionsField } from "../../../domain/contract/postRequest.ts"

// The composer's forms for each network's own object (reddit, youtube, ...), derived from the
// contract's schemas through their JSON Schema (the generator that writes the OpenAPI document), so a
// field added to the contract shows in the composer without touching the page.

/** How a text field is typed into: the page's presentation, which a schema's shape does not say. */
type TextInput = "text" | "date" | "time" | "url" | "boards"

/**
 * When a field applies, by another field's value (a rule the schema states only in words): "" in `in`
 * stands for left unset; with `unsetOnlyWithoutImage`, unset counts only while the post has no image.
 */
export interface ShownWhen {
  readonly path: string
  readonly in: ReadonlyArray<string>
  readonly unsetOnlyWithoutImage?: boolean
}

/** Fields shown (and sent) only when they apply, by their path in the request; the rest always apply. */
export const shownWhen: Readonly<Record<string, ShownWhen>> = {
  "googleBusiness.event": { path: "googleBusiness.topicType", in: ["EVENT", "OFFER"] },
  "googleBusiness.offer": { path: "googleBusiness.topicType", in: ["OFFER"] },
  "googleBusiness.callToAction": { path: "googleBusiness.topicType", in: ["", "STANDARD", "EVENT"] },
  "googleBusiness.callToAction.url": {
    path: "googleBusiness.callToAction.actionType",
    in: ["", "BOOK", "ORDER", "SHOP", "LEARN_MORE", "SIGN_UP"]
  },
  "reddit.url": { path: "reddit.kind", in: ["link", ""], unsetOnlyWithoutImage: true }
}

type Applies = { readonly shownWhen?: ShownWhen }

export type OptionField = Applies &
  (
    | { readonly name: string; readonly kind: "text"; readonly input: TextInput; readonly required: boolean }
    | {
        readonly name: string
        readonly kind: "choice"
        readonly values: ReadonlyArray<string>
        readonly required: boolean
      }
    | { readonly name: string; readonly kind: "toggle"; readonly required: boolean }
    | { readonly name: string; readonly kind: "list"; readonly maxItems: number | null; readonly required: boolean }
    | {
        readonly name: string
        readonly kind: "group"
        readonly fields: ReadonlyArray<OptionField>
        readonly required: boolean
      }
  )

export interface NetworkOptionForm {
  readonly platform: string
  /** The request's field for the network's object (googleBusiness for google_business). */
  readonly field: string
  readonly fields: ReadonlyArray<OptionField>
}

/**
 * Fields typed in other than as plain text, by their path in the request. "boards": chosen from
 * GET /accounts/{id}/boards (Pinterest's boards, Reddit's subreddits), typing still allowed.
 */
export const inputHints: Readonly<Record<string, Exclude<TextInput, "text">>> = {
  "pinterest.boardId": "boards",
  "pinterest.link": "url",
  "reddit.subreddit": "boards",
  "reddit.url": "url",
  "googleBusiness.callToAction.url": "url",
  "googleBusiness.event.startDate": "date",
  "googleBusiness.event.startTime": "time",
  "googleBusiness.event.endDate": "date",
  "googleBusiness.event.endTime": "time",
  "googleBusiness.offer.redeemOnlineUrl": "url"
}

type JsonSchema = {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly items?: JsonSchema
  readonly maxItems?: number
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
}

const fieldOf = (
  path: string,
  name: string,
  node: JsonSchema,
  required: boolean,
  definitions: Readonly<Record<string, JsonSchema>>
): OptionField => {
  const rule = shownWhen[path]
  const field = drawnField(path, name, node, required, definitions)
  return rule === undefined ? field : { ...field, shownWhen: rule }
}

const drawnField = (
  path: string,
  name: string,
  node: JsonSchema,
  required: boolean,
  definitions: Readonly<Record<string, JsonSchema>>
): OptionField => {
  const schema = node.$ref === undefined ? node : definitions[node.$ref.replace("#/$defs/", "")]
  if (schema === undefined) throw new Error(`${path}: ${node.$ref} is not among the schema's definitions`)
  if (schema.type === "object" && schema.properties !== undefined)
    return { name, kind: "group", required, fields: fieldsOf(path, schema, definitions) }
  if (schema.type === "boolean") return { name, kind: "toggle", required }
  if (schema.type === "string" && Array.isArray(schema.enum))
    return { name, kind: "choice", required, values: schema.enum.map(String) }
  if (schema.type === "string") return { name, kind: "text", required, input: inputHints[path] ?? "text" }
  if (schema.type === "array" && schema.items?.type === "string")
    return { name, kind: "list", required, maxItems: schema.maxItems ?? null }
  // A shape the composer cannot draw fails the unit test and the page's start, never silently.
  throw new Error(`${path}: no form for ${JSON.stringify(schema)}`)
}

const fieldsOf = (
  path: string,
  schema: JsonSchema,
  definitions: Readonly<Record<string, JsonSchema>>
): ReadonlyArray<OptionField> =>
  Object.entries(schema.properties ?? {}).map(([name, node]) =>
    fieldOf(`${path}.${name}`, name, node, (schema.required ?? []).includes(name), definitions)
  )

/** Each network's form, from its object's schema in the contract. */
export const networkOptionForms: ReadonlyArray<NetworkOptionForm> = Object.entries(networkOptionsField).map(
  ([platform, field]) => {
    const document = Schema.toJsonSchemaDocument(Schema.toCodecJson(networkOptionSchemas[field] as Schema.Top))
    const definitions = document.definitions as Readonly<Record<string, JsonSchema>>
    const root = fieldOf(field, field, document.schema as JsonSchema, false, definitions)
    if (root.kind !== "group") throw new Error(`${field} is not an object`)
    return { platform, field, fields: root.fields }
  }
)

/** Every path of a form's fields (groups and their fields), e.g. googleBusiness.event.title. */
export const fieldPaths = (prefix: string, fields: ReadonlyArray<OptionField>): ReadonlyArray<string> =>
  fields.flatMap((f) => [
    `${prefix}.${f.name}`,
    ...(f.kind === "group" ? fieldPaths(`${prefix}.${f.name}`, f.fields) : [])
  ])
