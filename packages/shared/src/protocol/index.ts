// The protocol rules of DESIGN.md §3 as plain definitions (no MCP SDK): mcp-kit enforces them, the lab's
// grader judges transcripts by them, so both always agree.
export { firstSentence } from './descriptions.js';
export { ErrorCodes, errorResponse, type JsonRpcErrorResponse, type JsonRpcId } from './errors.js';
export {
  ALLOWED_BEFORE_INITIALIZED,
  allowedBeforeInitialized,
  NOT_INITIALIZED_MESSAGE,
} from './lifecycle.js';
export {
  classifyLine,
  classifyMessage,
  copyJsonValue,
  type Incoming,
  isValidId,
  type JsonRpcMessage,
  MAX_MESSAGE_DEPTH,
  parseLine,
} from './messages.js';
export {
  batchesAllowed,
  inputErrorsAreToolResults,
  isSupportedVersion,
  LATEST_PROTOCOL_VERSION,
  negotiateVersion,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './versions.js';
