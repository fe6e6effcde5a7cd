import type { Locale } from "./workspace.ts"

export interface MailText {
  readonly subject: string
  readonly text: string
}

/** The claim e-mail, in the owner's language. */
export const claimMail = (locale: Locale, p: { workspaceName: string; agentName: string; link: string; expiresAt: string }): MailText =>
  locale === "ja"
    ? {
        subject: `Herald: ワークスペース「${p.workspaceName}」を確認してください`,
        text:
          `${p.agentName} があなたのために Herald のワークスペース「${p.workspaceName}」を作成しました。\n\n` +
          `次のリンクを開いてワークスペースを受け取ってください（${p.expiresAt} まで有効、1 回限り）:\n${p.link}\n\n` +
          `受け取るまで投稿は公開されません。エージェントの投稿はすべてあなたの承認を待ちます。\n` +
          `心当たりがない場合はこのメールを無視してください。7 日後にワークスペースは削除されます。\n`
      }
    : {
        subject: `Herald: claim your workspace "${p.workspaceName}"`,
        text:
          `${p.agentName} created the Herald workspace "${p.workspaceName}" for you.\n\n` +
          `Open this link to claim it (valid until ${p.expiresAt}, single use):\n${p.link}\n\n` +
          `Nothing is published until you claim it, and every post the agent makes waits for your approval.\n` +
          `If you did not expect this, ignore this e-mail: the workspace is deleted after 7 days.\n`
      }

/** Sent on a second sign-up with an address that already owns a workspace. */
export const existingWorkspaceMail = (locale: Locale, p: { agentName: string; link: string }): MailText =>
  locale === "ja"
    ? {
        subject: "Herald: エージェントがあなたのワークスペースへのアクセスを求めています",
        text:
          `${p.agentName} があなたのメールアドレスで Herald に登録しようとしました。すでにワークスペースがあります。\n\n` +
          `エージェントに API キーを渡すには、次のリンクでサインインしてキーを作成してください:\n${p.link}\n\n心当たりがない場合は無視してください。\n`
      }
    : {
        subject: "Herald: an agent asked for access to your workspace",
        text:
          `${p.agentName} tried to sign you up for Herald, but this address already has a workspace.\n\n` +
          `To give the agent an API key, sign in with this link and create one:\n${p.link}\n\nIf you did not expect this, ignore this e-mail.\n`
      }

export const signInMail = (locale: Locale, p: { link: string }): MailText =>
  locale === "ja"
    ? { subject: "Herald: サインインリンク", text: `次のリンクで Herald にサインインできます（1 回限り）:\n${p.link}\n` }
    : { subject: "Herald: your sign-in link", text: `Sign in to Herald with this link (single use):\n${p.link}\n` }

/** One sentence for the agent to relay to the human, in the claim e-mail's language. */
export const deliverySentence = (locale: Locale, maskedEmail: string, existing: boolean): string =>
  existing
    ? locale === "ja"
      ? `${maskedEmail} にはすでにワークスペースがあるため、サインインしてエージェント用のキーを作成する方法をメールで送りました。`
      : `${maskedEmail} already has a workspace, so we e-mailed it a link to sign in and create a key for the agent.`
    : locale === "ja"
      ? `${maskedEmail} にワークスペースを受け取るためのリンクをメールで送りました。7 日以内に開いてください（迷惑メールフォルダもご確認ください）。`
      : `We e-mailed a link to claim the workspace to ${maskedEmail}; open it within 7 days (check the spam folder too).`

/** The sentence to relay when the e-mail did not go: what to do instead, in the mail's language. */
export const deliveryFailedSentence = (locale: Locale, remedy: "claim-link" | "later"): string =>
  remedy === "claim-link"
    ? locale === "ja"
      ? "確認メールを送信できませんでした。POST /claim-link で再送してください。"
      : "The claim e-mail could not be sent; send it again with POST /claim-link."
    : locale === "ja"
      ? "メールを送信できませんでした。しばらくしてから再試行してください。"
      : "The e-mail could not be sent; try again later."

/** Ordered next steps for the agent, always in English. */
export const signupNextSteps = (existing: boolean): ReadonlyArray<string> =>
  existing
    ? [
        "Tell the human the sentence in `delivery`: their address already has a Herald workspace.",
        "Ask the human to sign in from the e-mail and create an API key for you under API keys.",
        "Use that key as Authorization: Bearer <key>."
      ]
    : [
        "Store apiKey now: it is shown only once. Send it as Authorization: Bearer <apiKey>.",
        "Tell the human the sentence in `delivery` and ask them to claim the workspace from the e-mail within 7 days.",
        "Connect a social account: GET /api/v1/connect/{platform} returns a URL for the human to open (try platform `sandbox` first).",
        "Create posts with POST /api/v1/posts; each waits for the human's approval because this key is asks-first.",
        "Check a post's status with GET /api/v1/posts/{id}. Free workspaces can publish 30 posts a month."
      ]

/** Sent to the owner when Herald turns off a webhook endpoint that kept failing. */
export const webhookDisabledMail = (locale: Locale, p: { url: string; since: string; appLink: string }): MailText =>
  locale === "ja"
    ? {
        subject: "Herald: 失敗が続いた Webhook を停止しました",
        text:
          `Webhook ${p.url} への配信が ${p.since} から失敗し続けたため、停止しました。\n\n` +
          `受信側を直してから、Herald で有効に戻してください（PATCH /api/v1/webhooks/{id} で enabled: true）。届かなかったイベントは配信一覧から再送できます:\n${p.appLink}\n`
      }
    : {
        subject: "Herald: a failing webhook was turned off",
        text:
          `Every delivery to the webhook ${p.url} has failed since ${p.since}, so Herald turned it off.\n\n` +
          `Fix the receiver, then turn the webhook back on (PATCH /api/v1/webhooks/{id} with enabled: true). ` +
          `Events it missed can be sent again from its deliveries:\n${p.appLink}\n`
      }

/** Sent to the owner when an account's connection ends and only they can renew it. */
export const reconnectMail = (locale: Locale, p: { network: string; username: string; link: string }): MailText =>
  locale === "ja"
    ? {
        subject: `Herald: ${p.network} アカウント @${p.username} の再接続が必要です`,
        text: `${p.network} アカウント @${p.username} の接続が切れました。再接続するまで、このアカウントには投稿されません。\n\n再接続はこちらから(ボタン一つです):\n${p.link}\n`
      }
    : {
        subject: `Herald: reconnect your ${p.network} account @${p.username}`,
        text: `The connection to your ${p.network} account @${p.username} ended. Nothing is posted to it until you reconnect it.\n\nReconnect it here (one button):\n${p.link}\n`
      }
