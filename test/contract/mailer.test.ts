import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer, Redacted } from "effect"
import PostalMime from "postal-mime"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as OutboxMailer from "../../adapters/outbox/OutboxMailer.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import * as SmtpMailer from "../../adapters/smtp/SmtpMailer.ts"
import { Mailer } from "../../application/ports/Mailer.ts"
import { startSmtpServer } from "../support/smtp.ts"
import { mailerContract } from "./mailer.ts"

mailerContract("recording (memory)", () => {
  const built = Effect.runSync(Layer.build(RecordingMailer.layer).pipe(Effect.scoped))
  const layer = Layer.succeedContext(built) as unknown as Layer.Layer<Mailer>
  const sent = Context.get(built, RecordingMailer.SentMail)
  return {
    layer,
    delivered: async (to) =>
      sent
        .all()
        .filter((m) => m.to === to)
        .map((m) => ({ ...m, inline: (m.inlineImages ?? []).map((i) => i.cid) }))
  }
})

mailerContract("outbox (.eml files)", () => {
  const dir = mkdtempSync(join(tmpdir(), "herald-outbox-"))
  return {
    layer: OutboxMailer.layer(dir),
    delivered: async (to) => {
      const parsed = await Promise.all(readdirSync(dir).map((f) => PostalMime.parse(readFileSync(join(dir, f)))))
      return parsed
        .filter((p) => p.to?.some((a) => a.address === to))
        .map((p) => ({
          subject: p.subject ?? "",
          text: p.text ?? "",
          html: p.html,
          inline: p.attachments.map((a) => a.contentId ?? "")
        }))
    }
  }
})

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp.close())

mailerContract("SMTP (real smtp-server peer)", () => ({
  layer: SmtpMailer.layer({ url: Redacted.make(smtp.url), from: "Herald <no-reply@herald.test>" }),
  delivered: async (to) => smtp.received.filter((m) => m.to === to)
}))

describe("SMTP failures", () => {
  it("wrong credentials or no server are a MailError, not a defect", async () => {
    for (const url of [smtp.url.replace("secret", "nope"), "smtp://127.0.0.1:1?ignoreTLS=true"]) {
      const result = await Effect.runPromise(
        Effect.flatMap(Mailer, (m) => m.send({ to: "a@herald-customer.org", subject: "s", text: "t" })).pipe(
          Effect.flip,
          Effect.provide(SmtpMailer.layer({ url: Redacted.make(url), from: "x@herald.test" }))
        )
      )
      expect(result._tag).toBe("MailError")
    }
  })
})
