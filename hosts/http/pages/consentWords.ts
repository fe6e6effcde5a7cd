// The consent page's words in English and Japanese. Every value from outside (the client's claimed name,
// its ids, the workspace's name) arrives here already escaped.

export type ConsentLocale = "en" | "ja"

export interface ConsentWords {
  readonly title: string
  readonly asks: (workspace: string, email: string) => string
  readonly callsItself: (name: string) => string
  readonly ownClaim: string
  readonly document: (url: string) => string
  readonly registered: (id: string) => string
  readonly goesBack: (host: string) => string
  readonly powers: string
  readonly postsLegend: string
  readonly asksFirst: string
  readonly mayPublish: string
  readonly nameLabel: string
  readonly allow: string
  readonly deny: string
  readonly revokeLater: string
  readonly signInTitle: string
  readonly signInFirst: (name: string) => string
  readonly email: string
  readonly sendLink: string
}

export const consentWords: Record<ConsentLocale, ConsentWords> = {
  en: {
    title: "Connect an application to Herald",
    asks: (w, e) => `An application asks to use Herald in your workspace <b>${w}</b> (signed in as ${e}).`,
    callsItself: (n) => `It calls itself <q id="client-name">${n}</q>.`,
    ownClaim: "That name is the application's own claim; Herald has not checked it.",
    document: (u) => `Its description is published at <code>${u}</code>.`,
    registered: (id) => `It registered itself with Herald (id <code>${id}</code>); Herald knows nothing more about it.`,
    goesBack: (h) => `After you choose, you go back to <code id="redirect-host">${h}</code>.`,
    powers:
      "If you allow it, it may do over MCP what an API key of this workspace may do: see the connected accounts, give you links to connect accounts and disconnect them, upload media, create, schedule, reschedule, cancel and follow its own posts, read the workspace's posts, and plan with the posting queue and schedules. It cannot approve posts, see or make keys, or change the workspace's settings.",
    postsLegend: "Its posts",
    asksFirst: "wait for my approval (asks first)",
    mayPublish: "may publish without asking me",
    nameLabel: "Name for this connection (optional)",
    allow: "Allow",
    deny: "Deny",
    revokeLater: "You can revoke this connection at any time under API keys in the app.",
    signInTitle: "Sign in to connect an application",
    signInFirst: (n) =>
      `An application that calls itself <q id="client-name">${n}</q> <span class="muted">(its own claim)</span> asks to use Herald for you. Sign in first: Herald e-mails you a link that brings you back here.`,
    email: "E-mail",
    sendLink: "Send me a link"
  },
  ja: {
    title: "アプリケーションを Herald に接続",
    asks: (w, e) =>
      `あるアプリケーションが、ワークスペース <b>${w}</b> で Herald を使う許可を求めています(${e} としてサインイン中)。`,
    callsItself: (n) => `名乗っている名前: <q id="client-name">${n}</q>`,
    ownClaim: "この名前はアプリケーション自身の申告で、Herald は確認していません。",
    document: (u) => `説明の公開先: <code>${u}</code>`,
    registered: (id) =>
      `Herald に自ら登録したアプリケーションです(id <code>${id}</code>)。それ以上のことは Herald にはわかりません。`,
    goesBack: (h) => `選ぶと <code id="redirect-host">${h}</code> に戻ります。`,
    powers:
      "許可すると、このワークスペースの API キーと同じことを MCP で行えます: 接続済みアカウントの確認、アカウント接続用リンクの発行と接続解除、メディアのアップロード、自分の投稿の作成・予約・変更・取り消し・追跡、ワークスペースの投稿の閲覧、投稿キューとスケジュールの計画。投稿の承認、キーの閲覧や作成、ワークスペース設定の変更はできません。",
    postsLegend: "このアプリの投稿",
    asksFirst: "私の承認を待つ(先に確認)",
    mayPublish: "確認なしで公開してよい",
    nameLabel: "この接続の名前(任意)",
    allow: "許可",
    deny: "拒否",
    revokeLater: "この接続はアプリの API キー画面でいつでも無効化できます。",
    signInTitle: "サインインしてアプリケーションを接続",
    signInFirst: (n) =>
      `<q id="client-name">${n}</q> と名乗るアプリケーション<span class="muted">(自己申告)</span>が Herald の利用許可を求めています。まずサインインしてください。このページに戻るリンクをメールで送ります。`,
    email: "メールアドレス",
    sendLink: "リンクを送る"
  }
}

/** Japanese for people whose browser asks for it first; English otherwise. */
export const localeOf = (acceptLanguage: string | undefined): ConsentLocale =>
  /^\s*ja\b/i.test(acceptLanguage ?? "") ? "ja" : "en"
