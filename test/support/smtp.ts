import type { AddressInfo } from "node:net"
import PostalMime from "postal-mime"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly to: string
  readonly from: string
  readonly subject: string
  readonly text: string
  readonly html: string | undefined
  /** Content-IDs of the inline images. */
  readonly inline: ReadonlyArray<string>
}

/** A real SMTP server on 127.0.0.1 (random port) that parses what it receives; checks AUTH. */
export const startSmtpServer = async (credentials = { user: "herald", pass: "secret" }) => {
  const received: Array<ReceivedMail> = []
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    onAuth: (auth, _session, callback) =>
      auth.username === credentials.user && auth.password === credentials.pass
        ? callback(null, { user: auth.username })
        : callback(new Error("bad credentials")),
    onData: (stream, session, callback) => {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks))
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          from: parsed.from?.address ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html,
          inline: parsed.attachments.map((a) => a.contentId ?? "")
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}?ignoreTLS=true`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
