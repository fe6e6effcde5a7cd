import { threadsApp } from "../meta/config.ts"

/** Threads is offered when THREADS_CLIENT_ID and THREADS_CLIENT_SECRET are set; its hosts can be overridden (THREADS_AUTHORIZE_URL, THREADS_TOKEN_URL, THREADS_API_URL). */
export const config = threadsApp

/** Publish, read the profile and the account's posts and replies (recovery), and reply (threads, first comments), and read insights (figures). */
export const scopes = [
  "threads_basic",
  "threads_content_publish",
  "threads_manage_replies",
  "threads_read_replies",
  "threads_manage_insights"
] as const
