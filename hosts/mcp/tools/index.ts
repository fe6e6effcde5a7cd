import type { AnyTool, CallContext } from "../tool.ts"
import {
  connectAccountTool,
  disconnectAccountTool,
  listAccountsTool,
  listBoardsTool,
  requestClaimLinkTool,
  signUpTool
} from "./accounts.ts"
import { waitForPostTool } from "./events.ts"
import { getMediaPreviewTool, uploadMediaTool } from "./media.ts"
import { metricsTools } from "./metrics.ts"
import { planningTools } from "./planning.ts"
import { webhookTools } from "./webhooks.ts"
import {
  cancelPostTool,
  createPostTool,
  getPostTool,
  listPostsTool,
  rejectPostTool,
  reschedulePostTool,
  takeDownPostTool,
  updatePostTool
} from "./posts.ts"

/** Every tool, in the order an agent meets them: get a key, connect, (upload,) post, follow up. */
export const toolsFor = (transport: CallContext["transport"]): ReadonlyArray<AnyTool> => [
  signUpTool,
  requestClaimLinkTool,
  listAccountsTool,
  connectAccountTool,
  listBoardsTool,
  disconnectAccountTool,
  uploadMediaTool(transport),
  getMediaPreviewTool,
  createPostTool,
  listPostsTool,
  getPostTool,
  waitForPostTool,
  updatePostTool,
  reschedulePostTool,
  cancelPostTool,
  rejectPostTool,
  takeDownPostTool,
  ...planningTools,
  ...metricsTools,
  ...webhookTools
]
