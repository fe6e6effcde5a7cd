import { Effect } from "effect"
import { type Mail, Mailer } from "../ports/Mailer.ts"

/** Sends mail and reports whether it went; a mail failure never fails the caller's action. */
export const trySend = (to: string, mail: Omit<Mail, "to">) =>
  Effect.flatMap(Mailer, (m) => m.send({ to, ...mail })).pipe(
    Effect.as(true),
    Effect.catch(() => Effect.succeed(false))
  )
