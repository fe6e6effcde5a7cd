import { Cause, Exit, Result, Schema, type SchemaAST, SchemaIssue } from "effect"
import { fail, type HeraldError } from "../errors.ts"

/** How requests are decoded: unknown fields are refused and every malformed field is named, not only the first. */
export const requestParseOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()
// A note per problem up to this many: a hostile body's thousand problems make a short message.
const MAX_NOTES = 8

/** A field's name as `details.fields` gives it: dotted, without array positions (`poll.options`). */
const fieldName = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> = []): string =>
  path
    .map((p) => (typeof p === "object" ? p.key : p))
    .filter((p) => typeof p !== "number")
    .map(String)
    .join(".")

/**
 * A value that failed its schema, as the envelope's validation_failed: every field named in
 * `details.fields`, and a note per problem. `whole` names the value itself (a body that is not an object).
 */
export const invalidShape = (
  issue: SchemaIssue.Issue,
  options: { readonly whole: string; readonly detail?: (notes: string) => string; readonly in?: string }
): HeraldError => {
  const problems = formatter(issue).issues
  const fields = [...new Set(problems.map((p) => fieldName(p.path) || options.whole))]
  const notes = problems.slice(0, MAX_NOTES).map((p) => {
    const field = fieldName(p.path)
    return field === "" || p.message.startsWith(field) ? p.message : `${field}: ${p.message}`
  })
  const text = [...new Set(notes)].join("; ") + (problems.length > MAX_NOTES ? "; ..." : "")
  return fail(
    "validation_failed",
    { fields, ...(options.in ? { in: options.in } : {}) },
    options.detail ? options.detail(text) : text
  )
}

/** The issue a schema failure carries (a decoding error of any other kind is none of the caller's doing). */
export const issueOf = (cause: unknown): SchemaIssue.Issue | undefined =>
  Schema.isSchemaError(cause) ? cause.issue : SchemaIssue.isIssue(cause) ? cause : undefined

/** A decoder to a Result whose failure is the envelope's validation_failed. */
export const decoderFor = <S extends Schema.Decoder<unknown>>(
  schema: S,
  parseOptions: SchemaAST.ParseOptions,
  options: { readonly whole: string; readonly detail?: (notes: string) => string }
) => {
  const decode = Schema.decodeUnknownExit(schema, parseOptions)
  return (input: unknown): Result.Result<S["Type"], HeraldError> => {
    const exit = decode(input)
    if (Exit.isSuccess(exit)) return Result.succeed(exit.value)
    const error = Cause.findErrorOption(exit.cause)
    return Result.fail(
      error._tag === "Some"
        ? invalidShape(error.value.issue, options)
        : fail("validation_failed", { fields: [options.whole] })
    )
  }
}
