import { Effect } from "effect"
import { type HeraldError, invalidFields } from "../../../domain/errors.ts"
import { checkText, describeTextProblem } from "../../../domain/text.ts"

/** The longest upload filename, in characters (what most file systems allow). */
export const FILENAME_MAX = 255

/**
 * An upload's filename as the client gave it is a label (domain/text.ts): one line, nothing
 * invisible, no text-direction characters, no NUL or lone surrogates, at most 255 characters. It is
 * refused rather than cleaned: a name such as "photo\u202Egnp.exe" is shown back to people.
 */
export const filenameProblem = (name: string): HeraldError | null => {
  const problem = checkText(name, { kind: "label", max: FILENAME_MAX, required: true })
  return problem === null ? null : invalidFields(["filename"], describeTextProblem("filename", problem))
}

export const checkFilename = (name: string): Effect.Effect<string, HeraldError> => {
  const problem = filenameProblem(name)
  return problem === null ? Effect.succeed(name) : Effect.fail(problem)
}

/** The name as shown back: no directories (browsers send C:\fakepath\...). */
export const shownFilename = (name: string, ext: string): string => {
  const base = (name.split(/[\\/]/).pop() ?? "").trim()
  return base === "" || base === "." || base === ".." ? `upload.${ext}` : base
}
