import { Schema } from "effect"
import { decodeReply } from "../shared/http.ts"

// The YouTube Data API v3 answers Herald reads (channels.list, videos.insert, videos.list, commentThreads), as far as it reads them.

const Channels = Schema.Struct({
  items: Schema.optional(
    Schema.Array(
      Schema.Struct({
        id: Schema.String,
        snippet: Schema.Struct({
          title: Schema.String,
          customUrl: Schema.optional(Schema.String),
          thumbnails: Schema.optional(
            Schema.Struct({ default: Schema.optional(Schema.Struct({ url: Schema.String })) })
          )
        })
      })
    )
  )
})
export type Channel = NonNullable<(typeof Channels.Type)["items"]>[number]

const Video = Schema.Struct({ id: Schema.String })
const VideoStatus = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      status: Schema.optional(
        Schema.Struct({
          uploadStatus: Schema.optional(Schema.String),
          failureReason: Schema.optional(Schema.String),
          rejectionReason: Schema.optional(Schema.String)
        })
      ),
      processingDetails: Schema.optional(Schema.Struct({ processingStatus: Schema.optional(Schema.String) }))
    })
  )
})
export type VideoState = (typeof VideoStatus.Type)["items"][number]
const Thread = Schema.Struct({ id: Schema.String })
const Threads = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      snippet: Schema.Struct({
        topLevelComment: Schema.Struct({
          snippet: Schema.Struct({
            textOriginal: Schema.optional(Schema.String),
            authorChannelId: Schema.optional(Schema.Struct({ value: Schema.String }))
          })
        })
      })
    })
  )
})

const decode = decodeReply
export const decodeChannels = decode(Channels)
export const decodeVideo = decode(Video)
export const decodeVideoStatus = decode(VideoStatus)
export const decodeThread = decode(Thread)
export const decodeThreads = decode(Threads)
