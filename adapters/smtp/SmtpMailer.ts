import { Config, Effect, Layer, Option, Redacted } from "effect"
import nodemailer from "nodemailer"
import { type Mail, MailError, Mailer, type MailerShape } from "../../application/ports/Mailer.ts"

export interface Options {
  /** `smtp://user:pass@host:587` or `smtps://...:465`; `?ignoreTLS=true` for a local relay without TLS. */
  readonly url: Redacted.Redacted<string>
  readonly from: string
}

/** The message as nodemailer composes it: text, the HTML part and its inline images when there are. */
export const composed = (mail: Mail) => ({
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  ...(mail.html === undefined ? {} : { html: mail.html }),
  attachments: (mail.inlineImages ?? []).map((image) => ({
    cid: image.cid,
    filename: image.filename,
    contentType: image.contentType,
    content: Buffer.from(image.content)
  }))
})

/** Sends through an SMTP server; a refused or unreachable server is a MailError, never a defect. */
export const make = (options: Options) =>
  Effect.acquireRelease(
    Effect.sync(() => nodemailer.createTransport(Redacted.value(options.url))),
    (transport) => Effect.sync(() => transport.close())
  ).pipe(
    Effect.map(
      (transport): MailerShape => ({
        send: (mail) =>
          Effect.tryPromise({
            try: () => transport.sendMail({ from: options.from, ...composed(mail) }),
            catch: (error) =>
              new MailError(`SMTP delivery failed: ${error instanceof Error ? error.message : String(error)}`)
          }).pipe(Effect.asVoid)
      })
    )
  )

export const layer = (options: Options) => Layer.effect(Mailer)(make(options))

/** `SMTP_URL` and `HERALD_MAIL_FROM`; None when no SMTP server is configured. */
export const optionsConfig = Config.all({
  url: Config.option(Config.Redacted("SMTP_URL")),
  from: Config.String("HERALD_MAIL_FROM").pipe(Config.withDefault("Herald <no-reply@herald.local>"))
}).pipe(Config.map(({ url, from }) => Option.map(url, (u): Options => ({ url: u, from }))))
