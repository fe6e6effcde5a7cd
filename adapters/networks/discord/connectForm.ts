import type { ConnectForm } from "../shared/connectForm.ts"

/** A channel's webhook URL, pasted: no bot joins the server (see README, Setting up Discord). */
export const connectForm: ConnectForm = {
  fields: [
    { name: "webhookUrl", type: "password", placeholder: "https://discord.com/api/webhooks/…", autocomplete: "off" }
  ],
  words: {
    en: {
      title: "Connect a Discord channel",
      intro: `<p>Herald posts to a Discord channel through one of its <b>webhooks</b>: no bot joins your server. In Discord, open the
channel's <b>Edit Channel → Integrations → Webhooks</b>, make a webhook (name it as posts should be signed; its name and picture show as
the author), choose <b>Copy Webhook URL</b> and paste it here.</p>
<p class="muted">Anyone with this URL can post in the channel: Herald keeps it encrypted. Deleting the webhook in Discord
disconnects Herald at once.</p>`,
      labels: { webhookUrl: "Webhook URL" }
    },
    ja: {
      title: "Discord のチャンネルを接続",
      intro: `<p>Herald は Discord のチャンネルに、その <b>ウェブフック</b> を通じて投稿します。ボットはサーバーに参加しません。Discord でチャンネルの
<b>チャンネルの編集 → 連携サービス → ウェブフック</b> を開き、ウェブフックを作成して（その名前とアイコンが投稿者として表示されます）、<b>ウェブフックURLをコピー</b> を選び、ここに貼り付けてください。</p>
<p class="muted">この URL を知っている人は誰でもチャンネルに投稿できます。Herald は暗号化して保管します。Discord でウェブフックを削除すると、すぐに Herald との接続が切れます。</p>`,
      labels: { webhookUrl: "ウェブフック URL" }
    }
  }
}
