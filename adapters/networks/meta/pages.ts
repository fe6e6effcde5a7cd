import { Effect, type Option, Schema } from "effect"
import type { Connection } from "../../../application/ports/Connectors.ts"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import type { HttpReply } from "../shared/http.ts"
import type { MetaAppConfig } from "./config.ts"
import { decoder, type Graph } from "./graph.ts"
import { makeMetaLogin, type MetaLoginClient } from "./auth.ts"
import type { OAuthRefused, OAuthUnavailable } from "../shared/oauth2Errors.ts"

/** A Page the person can post to, with its own token, and the Instagram professional account linked to it. */
export interface FacebookPage {
  readonly id: string
  readonly name: string
  readonly username: string | null
  readonly pictureUrl: string | null
  /** The Page's token, from a long-lived user token: it does not expire (until a password change, a lost role or a removed app). */
  readonly accessToken: string
  readonly instagram: {
    readonly id: string
    readonly username: string
    readonly name: string
    readonly pictureUrl: string | null
  } | null
}

/** What Facebook Login gave: the Pages Herald can post to, and those it cannot, with why. */
export interface GrantedPages {
  readonly pages: ReadonlyArray<FacebookPage>
  readonly refused: ReadonlyArray<{ readonly name: string; readonly why: string }>
}

const Picture = Schema.optional(
  Schema.Struct({ data: Schema.optional(Schema.Struct({ url: Schema.optional(Schema.String) })) })
)
const PageRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  username: Schema.optional(Schema.String),
  access_token: Schema.optional(Schema.String),
  tasks: Schema.optional(Schema.Array(Schema.String)),
  picture: Picture,
  instagram_business_account: Schema.optional(
    Schema.Struct({
      id: Schema.String,
      username: Schema.optional(Schema.String),
      name: Schema.optional(Schema.String),
      profile_picture_url: Schema.optional(Schema.String)
    })
  )
})
type PageRow = typeof PageRow.Type
const Paged = <S extends Schema.Top & { readonly DecodingServices: never }>(row: S) =>
  Schema.Struct({
    data: Schema.Array(row),
    paging: Schema.optional(
      Schema.Struct({
        cursors: Schema.optional(Schema.Struct({ after: Schema.optional(Schema.String) })),
        next: Schema.optional(Schema.String)
      })
    )
  })
const decodePages = decoder(Paged(PageRow))
const decodeBusinesses = decoder(Paged(Schema.Struct({ id: Schema.String, name: Schema.String })))

export const PAGE_FIELDS =
  "id,name,username,access_token,tasks,picture{url},instagram_business_account{id,username,name,profile_picture_url}"
/** Pages of a list read before giving up on the rest (100 Pages each). */
const MAX_LIST_PAGES = 10

/** Every row of a Graph list, following its `after` cursor. */
const listAll = <A>(
  graph: Graph,
  path: string,
  token: string,
  fields: string,
  read: (r: HttpReply) => Option.Option<{
    readonly data: ReadonlyArray<A>
    readonly paging?:
      | { readonly cursors?: { readonly after?: string | undefined } | undefined; readonly next?: string | undefined }
      | undefined
  }>,
  what: string
) =>
  Effect.gen(function* () {
    const rows: Array<A> = []
    let after: string | null = null
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const params: Record<string, string> = { fields, limit: "100" }
      if (after !== null) params.after = after
      const found = yield* graph.expect({ method: "GET", path, token, params, acting: null }, read, what)
      rows.push(...found.data)
      after = found.paging?.next !== undefined ? (found.paging.cursors?.after ?? null) : null
      if (after === null) break
    }
    return rows
  })

const CREATE_CONTENT = "CREATE_CONTENT"

const pageOf = (row: PageRow): FacebookPage => ({
  id: row.id,
  name: row.name,
  username: row.username ?? null,
  pictureUrl: row.picture?.data?.url ?? null,
  accessToken: row.access_token!,
  instagram:
    row.instagram_business_account === undefined
      ? null
      : {
          id: row.instagram_business_account.id,
          username: row.instagram_business_account.username ?? row.instagram_business_account.id,
          name: row.instagram_business_account.name ?? row.instagram_business_account.username ?? row.name,
          pictureUrl: row.instagram_business_account.profile_picture_url ?? null
        }
})

/**
 * Facebook Login for Pages (and the Instagram accounts linked to them). The code becomes a
 * short-lived user token, exchanged at once (fb_exchange_token) for a long-lived one, whose Pages
 * give tokens that do not expire; only Page tokens are kept, never the user token (a user token
 * where a Page token belongs fails every publish). Pages reachable only through a business
 * portfolio are read from the portfolio (`/{business}/owned_pages`); one that gives the person no
 * Page token, or no right to create content, is refused with the reason.
 */
export const makeFacebookLogin = (
  settings: MetaAppConfig,
  graph: Graph,
  scopes: ReadonlyArray<string>,
  timeoutMs: number
) => {
  const login: MetaLoginClient = makeMetaLogin("Facebook", { ...settings, scopes, timeoutMs })

  const longLived = (shortLived: string) =>
    login.tokenGet(settings.tokenUrl, {
      grant_type: "fb_exchange_token",
      client_id: settings.clientId,
      client_secret: login.clientSecret(),
      fb_exchange_token: shortLived
    })

  const grantedPages = (userToken: string): Effect.Effect<GrantedPages, PublishError> =>
    Effect.gen(function* () {
      const rows = [
        ...(yield* listAll(graph, "/me/accounts", userToken, PAGE_FIELDS, decodePages, "the person's Pages"))
      ]
      const portfolio = new Map<string, string>()
      // Pages owned by a business portfolio may not be in /me/accounts; without business_management the list is simply empty.
      const businesses = yield* Effect.orElseSucceed(
        listAll(graph, "/me/businesses", userToken, "id,name", decodeBusinesses, "the person's business portfolios"),
        () => []
      )
      for (const business of businesses) {
        const owned = yield* Effect.orElseSucceed(
          listAll(
            graph,
            `/${encodeURIComponent(business.id)}/owned_pages`,
            userToken,
            PAGE_FIELDS,
            decodePages,
            "a portfolio's Pages"
          ),
          () => []
        )
        for (const row of owned)
          if (!rows.some((r) => r.id === row.id)) {
            rows.push(row)
            portfolio.set(row.id, business.name)
          }
      }
      const pages: Array<FacebookPage> = []
      const refused: Array<{ name: string; why: string }> = []
      for (const row of rows) {
        const through = portfolio.get(row.id)
        const where = through === undefined ? "" : ` (in the business portfolio "${through}")`
        if (row.access_token === undefined || row.access_token === "")
          refused.push({
            name: row.name,
            why: `Facebook gave no Page token for "${row.name}"${where}: ask an admin of the portfolio to give you access to the Page with content permissions, then connect again.`
          })
        else if (row.tasks !== undefined && !row.tasks.includes(CREATE_CONTENT))
          refused.push({
            name: row.name,
            why: `You cannot create content on "${row.name}"${where}: ask a Page admin for the content task, then connect again.`
          })
        else pages.push(pageOf(row))
      }
      return { pages, refused }
    })

  return {
    authorizationUrl: login.authorizationUrl,
    /** The Pages the callback's grant reaches. */
    complete: (
      params: Readonly<Record<string, string>>,
      callbackUrl: string
    ): Effect.Effect<GrantedPages, OAuthRefused | OAuthUnavailable | PublishError> =>
      Effect.gen(function* () {
        const shortLived = yield* login.exchangeCode(params, callbackUrl)
        const user = yield* longLived(shortLived.accessToken)
        return yield* grantedPages(user.accessToken)
      })
  }
}

export type FacebookLogin = ReturnType<typeof makeFacebookLogin>

/** Why no account could be connected, in the person's words. */
export const noPagesMessage = (granted: GrantedPages, what: string) =>
  [
    `Facebook gave Herald no ${what} to post to.`,
    ...granted.refused.map((r) => r.why),
    ...(granted.refused.length === 0
      ? [
          "Choose at least one Page in Facebook's dialog (a business portfolio's Pages need business_management), then connect again."
        ]
      : [])
  ].join(" ")

/** A Page as a Herald account of Facebook: its Page token, which does not expire and has no refresh. */
export const pageConnection = (page: FacebookPage): Connection => ({
  profile: { externalId: page.id, name: page.name, username: page.username ?? page.name, avatarUrl: page.pictureUrl },
  credentials: { accessToken: page.accessToken, refreshToken: null, expiresAt: null, extra: { pageId: page.id } }
})

/** The Instagram account linked to a Page, as a Herald account of Instagram: it publishes with the Page's token on graph.facebook.com. */
export const linkedInstagramConnection = (page: FacebookPage): Connection | null =>
  page.instagram === null
    ? null
    : {
        platform: "instagram",
        profile: {
          externalId: page.instagram.id,
          name: page.instagram.name,
          username: page.instagram.username,
          avatarUrl: page.instagram.pictureUrl
        },
        credentials: {
          accessToken: page.accessToken,
          refreshToken: null,
          expiresAt: null,
          extra: { login: "facebook", pageId: page.id }
        }
      }
