import type { ConnectForm } from "../shared/connectForm.ts"

/** The instance first: Herald registers itself there, then the instance's own OAuth page follows. */
export const connectForm: ConnectForm = {
  fields: [{ name: "instance", type: "text", placeholder: "mastodon.social", autocomplete: "url" }],
  continues: true,
  words: {
    en: {
      title: "Connect a Mastodon account",
      intro: `<p>Which Mastodon server is your account on? Name its domain: for <code>@alice@mastodon.social</code>, that is
<code>mastodon.social</code>. Herald registers itself there as an app (once), then your server asks you to approve it.</p>`,
      labels: { instance: "Server" }
    },
    ja: {
      title: "Mastodon アカウントを接続",
      intro: `<p>あなたのアカウントはどの Mastodon サーバーにありますか？ドメインを入力してください。<code>@alice@mastodon.social</code> なら
<code>mastodon.social</code> です。Herald はそこにアプリとして（一度だけ）登録し、続いてサーバーが承認を求めます。</p>`,
      labels: { instance: "サーバー" }
    }
  }
}
