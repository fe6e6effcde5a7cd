import type { Locale } from "./workspace.ts"

export interface MailText {
  readonly subject: string
  readonly text: string
}

/** The claim e-mail, in the owner's language. */
export const claimMail = (
  locale: Locale,
  p: { workspaceName: string; agentName: string; link: string; expiresAt: string }
): MailText =>
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
    ? {
        subject: "Herald: サインインリンク",
        text: `次のリンクで Herald にサインインできます（1 回限り）:\n${p.link}\n`
      }
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

/** One waiting post as an approval e-mail shows it. */
export interface WaitingPostInMail {
  readonly agentName: string
  readonly text: string
  /** When it goes out, already in the owner's time zone; null: as soon as approved. */
  readonly when: string | null
  readonly networks: ReadonlyArray<string>
  readonly approveLink: string
  readonly rejectLink: string
  /** The content id of its first media's preview, attached inline; null without media. */
  readonly previewCid: string | null
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
const excerpt = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)

const approvalWords = {
  en: {
    one: (agent: string) => `Herald: ${agent} asks to post`,
    many: (n: number) => `Herald: ${n} posts wait for your approval`,
    intro: "An agent asks to post on your accounts. Nothing goes out without your yes.",
    to: "To",
    at: "Goes out",
    now: "as soon as you approve",
    by: "Asked by",
    approve: "Approve",
    reject: "Reject",
    confirm: "Each link opens a page where you confirm; it works once, and only for the post as shown here.",
    app: "All waiting posts, as each network will show them:",
    settings: "You get these e-mails because approval e-mails are on; change it under Settings."
  },
  ja: {
    one: (agent: string) => `Herald: ${agent} が投稿の承認を求めています`,
    many: (n: number) => `Herald: ${n} 件の投稿が承認を待っています`,
    intro: "エージェントがあなたのアカウントへの投稿を求めています。あなたが承認するまで投稿されません。",
    to: "投稿先",
    at: "投稿日時",
    now: "承認後すぐ",
    by: "依頼元",
    approve: "承認",
    reject: "却下",
    confirm: "各リンクは確認ページを開きます。一度だけ、ここに表示された内容に対してのみ有効です。",
    app: "承認待ちの投稿を各ネットワークでの表示で確認:",
    settings: "承認メールが有効になっているため、このメールが届いています。「設定」で変更できます。"
  }
} as const

/** Sent to the owner when posts start waiting: one post, or a digest of several; text and HTML, each with its Approve and Reject links. */
export const approvalRequestMail = (
  locale: Locale,
  p: { readonly posts: ReadonlyArray<WaitingPostInMail>; readonly appLink: string }
): MailText & { readonly html: string } => {
  const w = approvalWords[locale]
  const subject = p.posts.length === 1 ? w.one(p.posts[0]!.agentName) : w.many(p.posts.length)
  const text = [
    w.intro,
    "",
    ...p.posts.flatMap((post) => [
      "----",
      `${w.by}: ${post.agentName}`,
      `${w.to}: ${post.networks.join(", ")}`,
      `${w.at}: ${post.when ?? w.now}`,
      "",
      excerpt(post.text, 1000),
      "",
      `${w.approve}: ${post.approveLink}`,
      `${w.reject}: ${post.rejectLink}`,
      ""
    ]),
    w.confirm,
    "",
    `${w.app} ${p.appLink}`,
    "",
    w.settings,
    ""
  ].join("\n")
  const button = (href: string, label: string, primary: boolean) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;margin:4px 8px 4px 0;border-radius:6px;text-decoration:none;font-weight:600;${primary ? "background:#111;color:#fff" : "background:#fff;color:#111;border:1px solid #111"}">${escapeHtml(label)}</a>`
  const html = `<!doctype html><html lang="${locale}"><body style="font:16px/1.5 system-ui,sans-serif;color:#1d1d1f;max-width:600px;margin:0 auto;padding:16px">
<p>${escapeHtml(w.intro)}</p>
${p.posts
  .map(
    (post) => `<div style="border:1px solid #ddd;border-radius:8px;padding:12px;margin:12px 0">
<p style="margin:0 0 8px;color:#555;font-size:14px">${escapeHtml(w.by)}: <b>${escapeHtml(post.agentName)}</b> · ${escapeHtml(w.to)}: ${escapeHtml(post.networks.join(", "))} · ${escapeHtml(w.at)}: ${escapeHtml(post.when ?? w.now)}</p>
<p style="white-space:pre-wrap;margin:0 0 8px">${escapeHtml(excerpt(post.text, 1000))}</p>
${post.previewCid === null ? "" : `<img src="cid:${escapeHtml(post.previewCid)}" alt="" width="160" style="border-radius:6px;display:block;margin:0 0 8px">`}
${button(post.approveLink, w.approve, true)}${button(post.rejectLink, w.reject, false)}
</div>`
  )
  .join("\n")}
<p style="color:#555;font-size:14px">${escapeHtml(w.confirm)}</p>
<p><a href="${escapeHtml(p.appLink)}">${escapeHtml(w.app)}</a></p>
<p style="color:#777;font-size:12px">${escapeHtml(w.settings)}</p>
</body></html>`
  return { subject, text, html }
}

/** A time as the owner reads it: in their time zone and language. */
export const formatInZone = (ms: number, timeZone: string, locale: Locale): string =>
  new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short"
  }).format(new Date(ms))
