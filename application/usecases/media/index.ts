// The media use cases: what HTTP, MCP and the scheduler's sweeper loop call.
export { getMedia, getPreview } from "./read.ts"
export { removeMedia, sweepExpiredMedia } from "./sweep.ts"
export { checkFilename, FILENAME_MAX, filenameProblem, shownFilename } from "./filename.ts"
export { MCP_UPLOAD_LIMIT, REST_UPLOAD_LIMIT, uploadMedia } from "./upload.ts"
export { mediaView } from "./view.ts"
