import type { Locale } from "../../../domain/workspace.ts"

/** A field of Herald's own connect form: what the network needs that no OAuth page asks for. */
export interface ConnectFormField {
  readonly name: string
  readonly type: "text" | "password"
  readonly placeholder: string
  readonly autocomplete: string
}

/** The form's words in one language: the intro is Herald's own HTML (no value from outside goes in it). */
export interface ConnectFormWords {
  readonly title: string
  readonly intro: string
  readonly labels: Readonly<Record<string, string>>
}

/** A network that connects through a Herald form instead of (or before) an OAuth page. */
export interface ConnectForm {
  readonly fields: ReadonlyArray<ConnectFormField>
  /** The form names what the connection needs to begin (Mastodon's instance), then leads on to the network's own page. */
  readonly continues?: boolean | undefined
  readonly words: Readonly<Record<Locale, ConnectFormWords>>
}
