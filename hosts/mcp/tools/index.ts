import type { AnyTool, CallContext } from "../tool.ts"
import { connectAccountTool, listAccountsTool, requestClaimLinkTool, signUpTool } from "./accounts.ts"
import { cancelPostTool, createPostTool, getPostTool, listPostsTool, rejectPostTool, reschedulePostTool } from "./posts.ts"

/** Every tool, in the order an agent meets them: get a key, connect, (upload,) post, follow up. */
export const toolsFor = (_transport: CallContext["transport"]): ReadonlyArray<AnyTool> => [
  signUpTool,
  requestClaimLinkTool,
  listAccountsTool,
  connectAccountTool,
  createPostTool,
  listPostsTool,
  getPostTool,
  reschedulePostTool,
  cancelPostTool,
  rejectPostTool
]
