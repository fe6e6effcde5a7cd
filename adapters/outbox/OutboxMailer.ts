import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"
import { type Mail, MailError, Mailer, type MailerShape } from "../../application/ports/Mailer.ts"

// nodemailer's stream transport composes the message (text, HTML, inline images) without sending it.
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" })

/** RFC 5322 message bytes, so the file opens in any mail client. */
export const toEml = async (mail: Mail, from: string, date: Date): Promise<Buffer> => {
  const info = await composer.sendMail({
    from,
    to: mail.to,
    subject: mail.subject,
    date,
    text: mail.text,
    ...(mail.html === undefined ? {} : { html: mail.html }),
    attachments: (mail.inlineImages ?? []).map((image) => ({ cid: image.cid, filename: image.filename, contentType: image.contentType, content: Buffer.from(image.content) }))
  })
  return info.message as Buffer
}

/** With no SMTP server configured, mail is written as `.eml` files into a folder. */
export const make = (dir: string, from = "Herald <no-reply@herald.local>"): MailerShape => ({
  send: (mail) =>
    Effect.tryPromise({
      try: async () => {
        await mkdir(dir, { recursive: true })
        const now = new Date()
        const name = `${now.toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`
        await writeFile(join(dir, name), await toEml(mail, from, now), { mode: 0o600 })
      },
      catch: (e) => new MailError(`outbox write failed: ${String(e)}`)
    })
})

export const layer = (dir: string) => Layer.succeed(Mailer)(make(dir))
