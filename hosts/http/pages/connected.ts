import type { accountView } from "../../../application/usecases/accountView.ts"
import type { Locale } from "../../../domain/workspace.ts"
import { escapeHtml, page } from "./html.ts"
import { say } from "./words.ts"

type Connected = ReturnType<typeof accountView>

/** The page a finished connect shows, OAuth or Herald's form alike: one account, or the several a grant gave (Facebook's Pages). */
export const connectedPage = (accounts: ReadonlyArray<Connected>, locale: Locale) => {
  const vars = (a: Connected) => ({
    name: escapeHtml(a.name),
    username: escapeHtml(a.username),
    platform: escapeHtml(a.platform),
    id: escapeHtml(a.id)
  })
  const [only] = accounts
  return accounts.length === 1 && only !== undefined
    ? page(
        say(locale, "connect.doneTitle"),
        `<p>${say(locale, "connect.done", vars(only))}</p><p>${say(locale, "connect.doneId", vars(only))}</p>`,
        200,
        locale
      )
    : page(
        say(locale, "connect.doneManyTitle"),
        `<p>${escapeHtml(say(locale, "connect.doneMany", { n: String(accounts.length) }))}</p><ul>${accounts.map((a) => `<li>${say(locale, "connect.doneLine", vars(a))}</li>`).join("")}</ul><p>${escapeHtml(say(locale, "connect.close"))}</p>`,
        200,
        locale
      )
}
