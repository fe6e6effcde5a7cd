import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HeraldConfig } from "../../../application/config.ts"
import { decideFromLink, inspectApprovalLink } from "../../../application/usecases/inboxApproval.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import { formatInZone } from "../../../domain/messages.ts"
import { platformNames } from "../../../domain/platforms.ts"
import type { Locale } from "../../../domain/workspace.ts"
import { isBodyTooLarge } from "../errors.ts"
import { escapeHtml, page } from "./html.ts"
import { fromAnotherSite } from "./sameOrigin.ts"
import { errorPage, localeOf, say } from "./words.ts"

type Services =
  | Effect.Services<ReturnType<typeof inspectApprovalLink>>
  | Effect.Services<ReturnType<typeof decideFromLink>>
  | HeraldConfig

const toApp = (locale: Locale) => `<p><a href="/app">${escapeHtml(say(locale, "inbox.openApp"))}</a></p>`

const actionOf = (value: string | null): "approve" | "reject" => (value === "reject" ? "reject" : "approve")

/**
 * The pages an approval e-mail's links open. The GET only shows the post and a button (mail
 * scanners follow links); the POST, from this page only, spends the link and decides.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const publicOrigin = new URL((yield* HeraldConfig).publicUrl).origin
    const run = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      effect.pipe(
        Effect.catch((e) => Effect.map(HttpServerRequest.HttpServerRequest, (r) => errorPage(e, localeOf(r)))),
        Effect.provideContext(services)
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>

    return [
      HttpRouter.route(
        "GET",
        "/inbox",
        run(
          Effect.gen(function* () {
            const params = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://x").searchParams
            const token = params.get("token") ?? ""
            const action = actionOf(params.get("action"))
            const { workspace, post, changed } = yield* inspectApprovalLink(token)
            const l = workspace.locale
            if (post === null)
              return page(say(l, "inbox.goneTitle"), `<p>${escapeHtml(say(l, "inbox.gone"))}</p>${toApp(l)}`, 200, l)
            if (changed)
              return page(
                say(l, "inbox.changedTitle"),
                `<p>${escapeHtml(say(l, "inbox.changed"))}</p>${toApp(l)}`,
                200,
                l
              )
            const other = action === "approve" ? "reject" : "approve"
            const when =
              post.scheduledFor === null
                ? say(l, "inbox.now")
                : say(l, "inbox.at", { when: formatInZone(post.scheduledFor, workspace.timeZone, l) })
            const networks = [...new Set(post.targets.map((t) => platformNames[t.platform]))].join(", ")
            return page(
              say(l, action === "approve" ? "inbox.approveTitle" : "inbox.rejectTitle"),
              `<div class="post"><p class="muted">${escapeHtml(say(l, "inbox.by", { name: post.createdBy.name }))} · ${escapeHtml(say(l, "inbox.to", { networks }))} · ${escapeHtml(when)}</p>
<p style="white-space:pre-wrap">${escapeHtml(post.content)}</p></div>
<form method="post" action="/inbox"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="action" value="${action}">
${action === "reject" ? `<p><label>${escapeHtml(say(l, "inbox.reason"))}<br><textarea name="reason" maxlength="1000" rows="3" style="width:100%"></textarea></label></p>` : ""}
<p><button>${escapeHtml(say(l, action === "approve" ? "inbox.approve" : "inbox.reject"))}</button></p></form>
<p class="muted">${escapeHtml(say(l, "inbox.once"))}</p>
<p><a href="/inbox?token=${encodeURIComponent(token)}&amp;action=${other}">${escapeHtml(say(l, other === "approve" ? "inbox.orApprove" : "inbox.orReject"))}</a></p>`,
              200,
              l
            )
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/inbox",
        run(
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            // Only this site's own confirming page may decide (a page elsewhere cannot post a stolen link).
            if (fromAnotherSite(request.headers, publicOrigin))
              return yield* Effect.fail(
                fail(
                  "csrf_failed",
                  undefined,
                  "This form was sent from another site, so Herald did not act on it. Open the link from your e-mail again."
                )
              )
            const text = yield* Effect.catch(request.text, (error) =>
              isBodyTooLarge(error) ? Effect.die(error) : Effect.succeed("")
            )
            const form = new URLSearchParams(text)
            const reason = (form.get("reason") ?? "").trim()
            const { workspace, outcome } = yield* decideFromLink(
              form.get("token") ?? "",
              actionOf(form.get("action")),
              reason === "" ? null : reason
            )
            const l = workspace.locale
            switch (outcome._tag) {
              case "Changed":
                return page(
                  say(l, "inbox.changedTitle"),
                  `<p>${escapeHtml(say(l, "inbox.changed"))}</p>${toApp(l)}`,
                  409,
                  l
                )
              case "Gone":
                return page(say(l, "inbox.goneTitle"), `<p>${escapeHtml(say(l, "inbox.gone"))}</p>${toApp(l)}`, 409, l)
              case "Rejected":
                return page(
                  say(l, "inbox.rejected"),
                  `<p>${escapeHtml(say(l, "inbox.rejectedText"))}</p>${toApp(l)}`,
                  200,
                  l
                )
              case "Publishing":
                return page(
                  say(l, "inbox.approved"),
                  `<p>${escapeHtml(say(l, "inbox.approvedNow"))}</p>${toApp(l)}`,
                  200,
                  l
                )
              case "Scheduled":
                return page(
                  say(l, "inbox.approved"),
                  `<p>${escapeHtml(say(l, "inbox.approvedAt", { when: formatInZone(outcome.at, workspace.timeZone, l) }))}</p>${toApp(l)}`,
                  200,
                  l
                )
            }
          })
        )
      )
    ]
  })
)
