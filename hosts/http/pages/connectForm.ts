import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { connectWithFormFields, inspectConnectState } from "../../../application/usecases/accounts.ts"
import { completeFormConnect } from "../../../application/usecases/connectForm.ts"
import { HeraldConfig, HttpSettings } from "../../../application/config.ts"
import { clientBucket } from "../clientAddress.ts"
import { catalogue, type ErrorCode, fail, type HeraldError, messageOf } from "../../../domain/errors.ts"
import { errorResponse, toApiFailure } from "../errors.ts"
import { CONNECT_COOKIE } from "./connectStart.ts"
import { escapeHtml, page } from "./html.ts"

/** One network that connects through a Herald form instead of OAuth: what the form asks for and says. */
interface ConnectForm {
  readonly title: string
  readonly intro: string
  readonly fields: ReadonlyArray<{
    readonly name: string
    readonly label: string
    readonly type: "text" | "password"
    readonly placeholder: string
    readonly autocomplete: string
  }>
  /** The form names what the connection needs to begin (Mastodon's instance), then leads on to the network's own page. */
  readonly continues?: boolean
}

const forms: Readonly<Record<string, ConnectForm>> = {
  bluesky: {
    title: "Connect a Bluesky account",
    intro: `<p>Herald posts to Bluesky with an <b>app password</b>: a separate password for one app, which you can revoke at any time
without touching your account's own password. Create one in Bluesky under
<a href="https://bsky.app/settings/app-passwords" target="_blank" rel="noopener noreferrer">Settings → Privacy and security → App passwords</a>
(name it "Herald"; it looks like <code>abcd-efgh-ijkl-mnop</code>), and paste it here.</p>
<p class="muted">Never give Herald your main Bluesky password: it is refused. Herald keeps the app password encrypted, only to start a new
session when Bluesky ends the old one.</p>`,
    fields: [
      { name: "handle", label: "Handle", type: "text", placeholder: "alice.bsky.social", autocomplete: "username" },
      {
        name: "appPassword",
        label: "App password",
        type: "password",
        placeholder: "xxxx-xxxx-xxxx-xxxx",
        autocomplete: "off"
      }
    ]
  },
  telegram: {
    title: "Connect a Telegram channel or group",
    intro: `<p>Herald posts to Telegram as <b>your own bot</b>. In Telegram, open
<a href="https://t.me/BotFather" target="_blank" rel="noopener noreferrer">@BotFather</a>, send <code>/newbot</code> and copy the token
it gives (it looks like <code>123456789:AAH…</code>). Add the bot to your channel or group as an <b>administrator</b> allowed to post
messages, then name the chat here: its <code>@username</code>, or its numeric id (<code>-100…</code>) if it is private.</p>
<p class="muted">Herald keeps the token encrypted and uses it only to post to this chat. Revoking it in @BotFather, or removing the bot
from the chat, stops Herald posting there.</p>`,
    fields: [
      {
        name: "botToken",
        label: "Bot token",
        type: "password",
        placeholder: "123456789:AAH...",
        autocomplete: "off"
      },
      { name: "chat", label: "Channel or group", type: "text", placeholder: "@my_channel", autocomplete: "off" }
    ]
  },
  mastodon: {
    title: "Connect a Mastodon account",
    intro: `<p>Which Mastodon server is your account on? Name its domain: for <code>@alice@mastodon.social</code>, that is
<code>mastodon.social</code>. Herald registers itself there as an app (once), then your server asks you to approve it.</p>`,
    fields: [{ name: "instance", label: "Server", type: "text", placeholder: "mastodon.social", autocomplete: "url" }],
    continues: true
  },
  discord: {
    title: "Connect a Discord channel",
    intro: `<p>Herald posts to a Discord channel through one of its <b>webhooks</b>: no bot joins your server. In Discord, open the
channel's <b>Edit Channel → Integrations → Webhooks</b>, make a webhook (name it as posts should be signed; its name and picture show as
the author), choose <b>Copy Webhook URL</b> and paste it here.</p>
<p class="muted">Anyone with this URL can post in the channel: Herald keeps it encrypted. Deleting the webhook in Discord
disconnects Herald at once.</p>`,
    fields: [
      {
        name: "webhookUrl",
        label: "Webhook URL",
        type: "password",
        placeholder: "https://discord.com/api/webhooks/…",
        autocomplete: "off"
      }
    ]
  }
}

/**
 * These pages take a password: no framing, no scripts, no caching, the form posts only to Herald, and
 * the link's state (in the URL) is not sent to other sites as a referrer. `same-origin`, not
 * `no-referrer`: with no-referrer a browser sends `Origin: null` on the form's POST.
 */
const secured = (response: HttpServerResponse.HttpServerResponse, formAction = "'self'") =>
  HttpServerResponse.setHeaders(response, {
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store"
  })

const errorPage = (error: HeraldError, wantsJson: boolean) => {
  if (wantsJson) return errorResponse(toApiFailure(error))
  const shown = page(
    "Something is not right",
    `<p>${escapeHtml(messageOf(error))}</p><p class="muted">${escapeHtml(catalogue[error.code as ErrorCode]?.hint ?? "")}</p>`,
    catalogue[error.code as ErrorCode]?.status ?? 400
  )
  // A 429 page says when to come back, as the API's does.
  const wait = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
  return wait === undefined ? shown : HttpServerResponse.setHeader(shown, "retry-after", String(wait))
}

const formPage = (platform: string, form: ConnectForm, state: string) =>
  page(
    form.title,
    `${form.intro}
<form method="post" action="/connect/${escapeHtml(platform)}/callback"><input type="hidden" name="state" value="${escapeHtml(state)}">
${form.fields.map((f) => `<p><label>${escapeHtml(f.label)}<br><input name="${f.name}" type="${f.type}" placeholder="${escapeHtml(f.placeholder)}" autocomplete="${f.autocomplete}" required spellcheck="false" autocapitalize="none"></label></p>`).join("\n")}
<p><button>Connect</button></p></form>`
  )

/** Herald's own connect form (GET /connect/{platform}/form) and where it posts (POST /connect/{platform}/callback). */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<
      | Effect.Services<ReturnType<typeof completeFormConnect>>
      | Effect.Services<ReturnType<typeof inspectConnectState>>
      | Effect.Services<ReturnType<typeof connectWithFormFields>>
    >()
    const origin = new URL((yield* HeraldConfig).publicUrl).origin
    const client = clientBucket(yield* HttpSettings)
    const respond = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const wantsJson = (request.headers.accept ?? "").includes("application/json")
        // A form that leads on to the network's own page is answered with a redirect there, which form-action governs too.
        const continues = forms[(yield* HttpRouter.params).platform ?? ""]?.continues === true
        return secured(
          yield* effect.pipe(Effect.catch((e) => Effect.succeed(errorPage(e, wantsJson)))),
          continues ? "'self' https:" : "'self'"
        )
      }).pipe(Effect.provideContext(services)) as Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        never,
        HttpServerRequest.HttpServerRequest
      >

    return [
      HttpRouter.route(
        "GET",
        "/connect/:platform/form",
        respond(
          Effect.gen(function* () {
            const platform = (yield* HttpRouter.params).platform ?? ""
            const request = yield* HttpServerRequest.HttpServerRequest
            const state = new URL(request.url, "http://x").searchParams.get("state") ?? ""
            const form = forms[platform]
            if (form === undefined)
              return yield* Effect.fail(
                fail(
                  "platform_unavailable",
                  { platform, available: Object.keys(forms) },
                  `${platform} does not connect through a Herald form.`
                )
              )
            // Only in the browser that continued from the start page: the form is no way around it.
            yield* inspectConnectState(platform, state, request.cookies[CONNECT_COOKIE] ?? null)
            return formPage(platform, form, state)
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/connect/:platform/callback",
        respond(
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            // A form that takes a password (or registers Herald somewhere) is only ever sent from Herald's own page.
            if (request.headers.origin !== origin)
              return yield* Effect.fail(
                fail("csrf_failed", {}, "This form can only be sent from Herald's own connect page.")
              )
            const platform = (yield* HttpRouter.params).platform ?? ""
            const form = forms[platform]
            if (form === undefined)
              return yield* Effect.fail(
                fail(
                  "platform_unavailable",
                  { platform, available: Object.keys(forms) },
                  `${platform} does not connect through a Herald form.`
                )
              )
            const fields = new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => ""))
            const params = Object.fromEntries(
              ["state", ...form.fields.map((f) => f.name)].map((name) => [name, fields.get(name) ?? ""])
            )
            const wantsJson = (request.headers.accept ?? "").includes("application/json")
            if (form.continues === true) {
              const { url } = yield* connectWithFormFields(platform, params, request.cookies[CONNECT_COOKIE] ?? null)
              return wantsJson
                ? HttpServerResponse.jsonUnsafe({ url })
                : HttpServerResponse.redirect(url, { status: 303 })
            }
            const result = yield* completeFormConnect(
              platform,
              params,
              request.cookies[CONNECT_COOKIE] ?? null,
              client(request)
            )
            return wantsJson
              ? HttpServerResponse.jsonUnsafe(result)
              : page(
                  "Account connected",
                  `<p>Connected <b>${escapeHtml(result.account.name)}</b> (@${escapeHtml(result.account.username)}) on ${escapeHtml(result.account.platform)}.</p><p>Its id is <code>${escapeHtml(result.account.id)}</code>. You can close this page.</p>`
                )
          })
        )
      )
    ]
  })
)
