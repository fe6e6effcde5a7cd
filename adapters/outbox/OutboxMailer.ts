import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { MailError, Mailer, type MailerShape } from "../../application/ports/Mailer.ts"

const encodeHeader = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`)

/** RFC 5322 message text, so the file opens in any mail client. */
export const toEml = (mail: { to: string; subject: string; text: string }, from: string, date: Date) =>
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

/** With no SMTP server configured, mail is written as `.eml` files into a folder. */
export const make = (dir: string, from = "Herald <no-reply@herald.local>"): MailerShape => ({
  send: (mail) =>
    Effect.tryPromise({
      try: async () => {
        await mkdir(dir, { recursive: true })
        const now = new Date()
        const name = `${now.toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`
        await writeFile(join(dir, name), toEml(mail, from, now), { mode: 0o600 })
      },
      catch: (e) => new MailError(`outbox write failed: ${String(e)}`)
    })
})

export const layer = (dir: string) => Layer.succeed(Mailer)(make(dir))
