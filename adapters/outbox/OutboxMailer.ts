import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"
import { type Mail, MailError, Mailer, type MailerShape } from "../../application/ports/Mailer.ts"

const encodeHeader = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`

/** A text-only message as a single base64 part: the format the outbox has always written. */
const plainEml = (mail: Mail, from: string, date: Date) =>
  [
    `From: ${from}`,
    `To: ${mail.to}`,
    `Subject: ${encodeHeader(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(mail.text, "utf8").toString("base64").replace(/.{76}/g, "$&\r\n"),
    ""
  ].join("\r\n")

// nodemailer's stream transport composes a message with parts (text, HTML, inline images) without sending it.
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" })

/** RFC 5322 message bytes, so the file opens in any mail client. */
export const toEml = async (mail: Mail, from: string, date: Date): Promise<Buffer> => {
  if (mail.html === undefined && (mail.inlineImages ?? []).length === 0)
    return Buffer.from(plainEml(mail, from, date), "utf8")
  const info = await composer.sendMail({
    from,
    to: mail.to,
    subject: mail.subject,
    date,
    text: mail.text,
    ...(mail.html === undefined ? {} : { html: mail.html }),
    attachments: (mail.inlineImages ?? []).map((image) => ({
      cid: image.cid,
      filename: image.filename,
      contentType: image.contentType,
      content: Buffer.from(image.content)
    }))
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
