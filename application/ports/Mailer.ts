import { Context, type Effect } from "effect"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  /** An HTML part beside the text one, when the mail has one. */
  readonly html?: string | undefined
  /** Images the HTML shows inline, by `cid:` reference. */
  readonly inlineImages?: ReadonlyArray<InlineImage> | undefined
}

export interface InlineImage {
  readonly cid: string
  readonly filename: string
  readonly contentType: string
  readonly content: Uint8Array
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
