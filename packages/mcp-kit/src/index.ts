export { type ConfigOf, type OptionSpec, type OptionSpecs, booleanSetting, helpText, parseConfig } from './config.js';
export { LOG_LEVELS, type LogLevel, Logger, levelAtLeast } from './logging.js';
export { DomainError, ErrorCodes, ProtocolError, errorResponse } from './protocol/errors.js';
export { GuardedTransport } from './protocol/guard.js';
export { type Incoming, classifyLine, classifyMessage, isValidId } from './protocol/messages.js';
export { ProtocolSession } from './protocol/session.js';
export {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  inputErrorsAreToolResults,
  isSupportedVersion,
  negotiateVersion,
} from './protocol/versions.js';
export { type CommonConfig, type ServerApp, commonOptions, runStdioServer } from './run.js';
export { type KitServer, type ServerDefinition, type ServerOptions, createKitServer } from './server.js';
export { type AnyTool, type ToolAnnotations, type ToolContext, type ToolDefinition, type ToolOutput, defineTool } from './tools/define.js';
export { toJsonSchema } from './tools/json-schema.js';
export { DEFAULT_TOOL_TIMEOUT_MS, activeTools, describeTool, registerTools } from './tools/register.js';
export { describeArgumentIssues, formatArgumentIssues } from './tools/validation.js';
export { DEFAULT_MAX_LINE_BYTES, StdioTransport } from './transport/stdio.js';
