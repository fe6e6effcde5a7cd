import type { ConnectForm } from "../shared/connectForm.ts"

/** The person's own bot and the chat it posts to (the Bot API has no OAuth). */
export const connectForm: ConnectForm = {
  fields: [
    { name: "botToken", type: "password", placeholder: "123456789:AAH...", autocomplete: "off" },
    { name: "chat", type: "text", placeholder: "@my_channel", autocomplete: "off" }
  ],
  words: {
    en: {
      title: "Connect a Telegram channel or group",
      intro: `<p>Herald posts to Telegram as <b>your own bot</b>. In Telegram, open
<a href="https://t.me/BotFather" target="_blank" rel="noopener noreferrer">@BotFather</a>, send <code>/newbot</code> and copy the token
it gives (it looks like <code>123456789:AAH…</code>). Add the bot to your channel or group as an <b>administrator</b> allowed to post
messages, then name the chat here: its <code>@username</code>, or its numeric id (<code>-100…</code>) if it is private.</p>
<p class="muted">Herald keeps the token encrypted and uses it only to post to this chat. Revoking it in @BotFather, or removing the bot
from the chat, stops Herald posting there.</p>`,
      labels: { botToken: "Bot token", chat: "Channel or group" }
    },
    ja: {
      title: "Telegram のチャンネルまたはグループを接続",
      intro: `<p>Herald は <b>あなた自身のボット</b> として Telegram に投稿します。Telegram で
<a href="https://t.me/BotFather" target="_blank" rel="noopener noreferrer">@BotFather</a> を開き、<code>/newbot</code> を送って、返ってくるトークン（<code>123456789:AAH…</code> の形式）をコピーしてください。
ボットを、メッセージを投稿できる <b>管理者</b> としてチャンネルまたはグループに追加し、ここでチャットを指定します。<code>@username</code>、非公開なら数字の ID（<code>-100…</code>）です。</p>
<p class="muted">Herald はトークンを暗号化して保管し、このチャットへの投稿にだけ使います。@BotFather でトークンを取り消すか、ボットをチャットから外すと、Herald はそこに投稿しなくなります。</p>`,
      labels: { botToken: "ボットのトークン", chat: "チャンネルまたはグループ" }
    }
  }
}
