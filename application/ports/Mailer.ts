import { Context, type Effect } from "effect"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export class MailError {
  readonly _tag = "MailError"
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

export interface MailerShape {
  readonly send: (mail: Mail) => Effect.Effect<void, MailError>
}

export class Mailer extends Context.Service<Mailer, MailerShape>()("herald/Mailer") {}
