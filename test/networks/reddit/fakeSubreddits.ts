/**
 * The subreddits and users of the fake Reddit: what GET /r/{sr}/about, /api/v1/{sr}/post_requirements
 * and /r/{sr}/api/link_flair_v2 answer for each, as Reddit documents those answers.
 */

export interface FakeSubreddit {
  readonly name: string
  type: "public" | "restricted" | "private"
  /** any | self | link (Reddit's submission_type). */
  submissionType: "any" | "self" | "link"
  allowImages: boolean
  contributors: ReadonlyArray<string>
  moderators: ReadonlyArray<string>
  subscribers: ReadonlyArray<string>
  banned: ReadonlyArray<string>
  requirements: Record<string, unknown>
  /** null: the subreddit lets no one pick a flair (link_flair_v2 answers 403). */
  flairs: ReadonlyArray<{ readonly id: string; readonly text: string }> | null
}

export interface FakeUser {
  readonly id: string
  readonly name: string
  readonly title: string
}

export const fakeUsers = (): Map<string, FakeUser> =>
  new Map([
    ["alice", { id: "1w72dnj4", name: "alice_bakes", title: "Alice bakes" }],
    ["bob", { id: "9zz0b0b", name: "bob_builds", title: "" }]
  ])

const noRequirements = {
  is_flair_required: false,
  title_text_min_length: null,
  title_text_max_length: null,
  title_required_strings: [],
  title_blacklisted_strings: [],
  body_restriction_policy: "none",
  body_text_min_length: null,
  body_text_max_length: null,
  body_blacklisted_strings: [],
  domain_blacklist: [],
  domain_whitelist: []
}

export const fakeSubreddits = (): Map<string, FakeSubreddit> => {
  const all: Array<FakeSubreddit> = [
    {
      name: "HeraldTest",
      type: "public",
      submissionType: "any",
      allowImages: true,
      contributors: [],
      moderators: [],
      subscribers: ["alice_bakes"],
      banned: [],
      requirements: { ...noRequirements },
      flairs: [{ id: "0c1a1f6e-1", text: "News" }]
    },
    {
      name: "AskHerald",
      type: "public",
      submissionType: "self",
      allowImages: false,
      contributors: [],
      moderators: [],
      subscribers: ["alice_bakes"],
      banned: [],
      requirements: {
        ...noRequirements,
        is_flair_required: true,
        title_text_max_length: 120,
        body_restriction_policy: "required"
      },
      flairs: [
        { id: "5f1b8c2a-q", text: "Question" },
        { id: "5f1b8c2a-d", text: "Discussion" }
      ]
    },
    {
      name: "HeraldLinks",
      type: "public",
      submissionType: "link",
      allowImages: true,
      contributors: [],
      moderators: ["alice_bakes"],
      subscribers: ["alice_bakes"],
      banned: [],
      requirements: { ...noRequirements, domain_blacklist: ["spam.example"] },
      flairs: null
    },
    {
      name: "HeraldNews",
      type: "restricted",
      submissionType: "any",
      allowImages: true,
      contributors: ["alice_bakes"],
      moderators: [],
      subscribers: ["alice_bakes"],
      banned: [],
      requirements: { ...noRequirements },
      flairs: null
    }
  ]
  return new Map(all.map((s) => [s.name.toLowerCase(), s]))
}

export const aboutOf = (s: FakeSubreddit, user: string) => ({
  kind: "t5",
  data: {
    display_name: s.name,
    display_name_prefixed: `r/${s.name}`,
    subreddit_type: s.type,
    submission_type: s.submissionType,
    allow_images: s.allowImages,
    user_is_banned: s.banned.includes(user),
    user_is_contributor: s.contributors.includes(user),
    user_is_moderator: false,
    user_is_subscriber: true
  }
})

/** A subreddit as GET /subreddits/mine/* lists it (a t5 thing). */
export const t5Of = (s: FakeSubreddit) => ({
  kind: "t5",
  data: {
    id: s.name.toLowerCase().slice(0, 6),
    name: `t5_${s.name.toLowerCase().slice(0, 6)}`,
    display_name: s.name,
    display_name_prefixed: `r/${s.name}`,
    title: `${s.name}, the subreddit`,
    public_description: "",
    subreddit_type: s.type
  }
})
