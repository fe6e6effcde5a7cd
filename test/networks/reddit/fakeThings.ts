/** The fake Reddit's things and how Reddit shows them: posts (t3), comments (t1), listings, api_type=json errors. */

export interface FakePost {
  readonly id: string
  readonly author: string
  readonly subreddit: string
  readonly kind: string
  readonly title: string
  readonly text: string | null
  readonly url: string | null
  readonly flairId: string | null
  readonly createdUtc: number
  deleted: boolean
  score: number
  numComments: number
  upvoteRatio: number
}

export interface FakeComment {
  readonly id: string
  readonly author: string
  readonly linkId: string
  readonly parentId: string
  readonly body: string
  readonly createdUtc: number
  deleted: boolean
}

export const apiError = (code: string, message: string, field: string) => ({
  json: { errors: [[code, message, field]] }
})
export const unauthorized = { message: "Unauthorized", error: 401 }

export const t3 = (p: FakePost) => ({
  kind: "t3",
  data: {
    id: p.id,
    name: `t3_${p.id}`,
    author: p.deleted ? "[deleted]" : p.author,
    subreddit: p.subreddit,
    title: p.title,
    selftext: p.text ?? "",
    url: p.url ?? `https://www.reddit.com/r/${p.subreddit}/comments/${p.id}/`,
    created_utc: p.createdUtc,
    permalink: `/r/${p.subreddit}/comments/${p.id}/${p.title.toLowerCase().replace(/\W+/g, "_").slice(0, 40)}/`,
    score: p.score,
    num_comments: p.numComments,
    upvote_ratio: p.upvoteRatio,
    removed_by_category: p.deleted ? "deleted" : null
  }
})
export const t1 = (c: FakeComment) => ({
  kind: "t1",
  data: {
    id: c.id,
    name: `t1_${c.id}`,
    link_id: c.linkId,
    parent_id: c.parentId,
    body: c.body,
    created_utc: c.createdUtc,
    permalink: `/r/x/comments/${c.linkId.slice(3)}/_/${c.id}/`
  }
})
export const listing = (children: Array<unknown>) => ({
  kind: "Listing",
  data: { after: null, before: null, children }
})
