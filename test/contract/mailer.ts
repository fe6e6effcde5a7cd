import { Effect, type Layer } from "effect"
import { describe, expect, it } from "vitest"
import { type Mail, Mailer } from "../../application/ports/Mailer.ts"

export interface MailerUnderTest {
  readonly layer: Layer.Layer<Mailer>
  /** What the adapter delivered to `to`, read back from where it delivers (server, folder, recorder). */
  readonly delivered: (to: string) => Promise<
    ReadonlyArray<{
      readonly subject: string
      readonly text: string
      readonly html?: string | undefined
      readonly inline?: ReadonlyArray<string>
    }>
  >
}

const send = (layer: Layer.Layer<Mailer>, mail: Mail) =>
  Effect.runPromise(Effect.flatMap(Mailer, (m) => m.send(mail)).pipe(Effect.provide(layer)))

/** The Mailer contract: what is sent arrives intact, UTF-8 subjects and bodies included. */
export const mailerContract = (name: string, make: () => MailerUnderTest) =>
  describe(`Mailer contract: ${name}`, () => {
    it("delivers subject and text to the recipient", async () => {
      const under = make()
      const to = `owner-${Math.random().toString(36).slice(2)}@herald-customer.org`
      await send(under.layer, {
        to,
        subject: "Claim your workspace",
        text: "Open https://herald.test/claim?token=abc\nthanks"
      })
      const mails = await under.delivered(to)
      expect(mails).toHaveLength(1)
      expect(mails[0].subject).toBe("Claim your workspace")
      expect(mails[0].text.trim()).toBe("Open https://herald.test/claim?token=abc\nthanks")
    })

    it("keeps Japanese subjects and bodies intact", async () => {
      const under = make()
      const to = `ja-${Math.random().toString(36).slice(2)}@herald-customer.org`
      await send(under.layer, {
        to,
        subject: "Herald: ワークスペースを確認してください",
        text: "次のリンクを開いてください。\n" + "あ".repeat(200)
      })
      const [mail] = await under.delivered(to)
      expect(mail.subject).toBe("Herald: ワークスペースを確認してください")
      expect(mail.text.trim()).toBe("次のリンクを開いてください。\n" + "あ".repeat(200))
    })

    it("sends an HTML part beside the text, with its inline image", async () => {
      const under = make()
      const to = `html-${Math.random().toString(36).slice(2)}@herald-customer.org`
      const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 0xff, 0xd9])
      await send(under.layer, {
        to,
        subject: "A post waits",
        text: "Approve: https://herald.test/inbox?token=abc",
        html: '<p>Approve: <a href="https://herald.test/inbox?token=abc">here</a></p><img src="cid:preview-1@herald" alt="">',
        inlineImages: [{ cid: "preview-1@herald", filename: "preview.jpg", contentType: "image/jpeg", content: jpeg }]
      })
      const [mail] = await under.delivered(to)
      expect(mail.text.trim()).toBe("Approve: https://herald.test/inbox?token=abc")
      expect(mail.html).toContain('href="https://herald.test/inbox?token=abc"')
      expect((mail.inline ?? []).map((cid) => cid.replace(/[<>]/g, ""))).toEqual(["preview-1@herald"])
    })
  })
