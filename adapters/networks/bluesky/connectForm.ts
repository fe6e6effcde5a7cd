import type { ConnectForm } from "../shared/connectForm.ts"

/** A handle and an app password: Bluesky has no OAuth Herald uses (see README, Setting up Bluesky). */
export const connectForm: ConnectForm = {
  fields: [
    { name: "handle", type: "text", placeholder: "alice.bsky.social", autocomplete: "username" },
    { name: "appPassword", type: "password", placeholder: "xxxx-xxxx-xxxx-xxxx", autocomplete: "off" }
  ],
  words: {
    en: {
      title: "Connect a Bluesky account",
      intro: `<p>Herald posts to Bluesky with an <b>app password</b>: a separate password for one app, which you can revoke at any time
without touching your account's own password. Create one in Bluesky under
<a href="https://bsky.app/settings/app-passwords" target="_blank" rel="noopener noreferrer">Settings → Privacy and security → App passwords</a>
(name it "Herald"; it looks like <code>abcd-efgh-ijkl-mnop</code>), and paste it here.</p>
<p class="muted">Never give Herald your main Bluesky password: it is refused. Herald keeps the app password encrypted, only to start a new
session when Bluesky ends the old one.</p>`,
      labels: { handle: "Handle", appPassword: "App password" }
    },
    ja: {
      title: "Bluesky アカウントを接続",
      intro: `<p>Herald は <b>アプリパスワード</b> で Bluesky に投稿します。アプリごとの別のパスワードで、アカウント本来のパスワードに触れずにいつでも取り消せます。
Bluesky の
<a href="https://bsky.app/settings/app-passwords" target="_blank" rel="noopener noreferrer">設定 → プライバシーとセキュリティ → アプリパスワード</a>
で作成し（名前は「Herald」、形式は <code>abcd-efgh-ijkl-mnop</code>）、ここに貼り付けてください。</p>
<p class="muted">Bluesky のメインのパスワードは入力しないでください（受け付けません）。Herald はアプリパスワードを暗号化して保管し、Bluesky がセッションを終えたときに新しいセッションを始めるためだけに使います。</p>`,
      labels: { handle: "ハンドル", appPassword: "アプリパスワード" }
    }
  }
}
