import { Context, Effect, Layer } from "effect"
import { type Mail, Mailer, type MailerShape } from "../../application/ports/Mailer.ts"

/** What the recording mailer captured, for tests to assert on. */
export class SentMail extends Context.Service<
  SentMail,
  { readonly all: () => ReadonlyArray<Mail>; readonly last: (to: string) => Mail | undefined }
>()("herald/memory/SentMail") {}

export const layer = Layer.effectContext(
  Effect.sync(() => {
    const sent: Array<Mail> = []
    const mailer: MailerShape = { send: (mail) => Effect.sync(() => void sent.push(mail)) }
    return Context.make(Mailer, mailer).pipe(
      Context.add(SentMail, { all: () => [...sent], last: (to) => [...sent].reverse().find((m) => m.to === to) })
    )
  })
)
