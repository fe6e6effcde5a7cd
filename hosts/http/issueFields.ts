import { Option } from "effect"

/** Field paths named by a schema error's issue tree (`poll.options`, `accountIds`). */
export const issueFields = (cause: unknown): Option.Option<ReadonlyArray<string>> => {
  const fields = new Set<string>()
  const walk = (issue: unknown, path: ReadonlyArray<PropertyKey>): void => {
    if (typeof issue !== "object" || issue === null) return
    const node = issue as { _tag?: string; path?: ReadonlyArray<PropertyKey>; issue?: unknown; issues?: ReadonlyArray<unknown> }
    const here = node._tag === "Pointer" && node.path ? [...path, ...node.path] : path
    if (node.issues && node.issues.length > 0) node.issues.forEach((i) => walk(i, here))
    else if (node.issue) walk(node.issue, here)
    else if (here.length > 0)
      fields.add(
        here
          .filter((p) => typeof p !== "number")
          .map(String)
          .join(".")
      )
  }
  const issue = typeof cause === "object" && cause !== null ? (cause as { issue?: unknown }).issue : undefined
  walk(issue, [])
  return fields.size > 0 ? Option.some([...fields]) : Option.none()
}
