import type { VideoPhase, VideoStatus } from "./api.ts"

// What a video's status (GET /{video-id}?fields=status) says about a Page video or a reel.

const phases = (status: VideoStatus) => [
  status.status?.uploading_phase,
  status.status?.processing_phase,
  status.status?.publishing_phase
]

/** Meta could not take the video: a phase of it, or its status, is an error (the phase carries Meta's words when it gives them). */
export const failedPhase = (status: VideoStatus): VideoPhase | null =>
  phases(status).find((p) => p?.status === "error") ?? (status.status?.video_status === "error" ? {} : null)

/** Meta received a reel's finish call: its publishing phase began (or ended). */
export const finishReceived = (status: VideoStatus) => {
  const publishing = status.status?.publishing_phase
  return (
    (publishing?.status !== undefined && publishing.status !== "not_started") ||
    publishing?.publish_status === "published"
  )
}

/** The video is on the Page: processed and, for a reel, its publishing phase complete. */
export const isLive = (status: VideoStatus, reel: boolean) =>
  status.status?.video_status === "ready" &&
  (!reel || status.status.publishing_phase === undefined || status.status.publishing_phase.status === "complete")
