export {
  type Answer,
  type ClientFeature,
  type ClientFeatures,
  type ElicitContent,
  type ElicitSchema,
  NO_CLIENT_FEATURES,
  type SampleRequest,
  timeToAnswer,
} from './client-features.js';
export {
  booleanSetting,
  type ConfigOf,
  helpText,
  type OptionSpec,
  type OptionSpecs,
  parseConfig,
} from './config.js';
export {
  type CredentialOutcome,
  type CredentialPage,
  openCredentialPage,
} from './credential-page.js';
export { firstSentence, renderToolsTable } from './docs.js';
export { fenceUntrusted } from './fence.js';
export { LOG_LEVELS, Logger, type LogLevel, levelAtLeast } from './logging.js';
export {
  DomainError,
  ErrorCodes,
  errorResponse,
  HttpErrorCodes,
  isDomainError,
  ProtocolError,
} from './protocol/errors.js';
export { GuardedTransport } from './protocol/guard.js';
export { classifyLine, classifyMessage, type Incoming, isValidId, parseLine } from './protocol/messages.js';
export { ProtocolSession } from './protocol/session.js';
export {
  inputErrorsAreToolResults,
  isSupportedVersion,
  LATEST_PROTOCOL_VERSION,
  negotiateVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol/versions.js';
export { RESOURCE_NOT_FOUND, readJsonResource } from './resources.js';
export { readTextInRoots } from './roots.js';
export { type CommonConfig, commonOptions, runServer, runStdioServer, type ServerApp } from './run.js';
export {
  createKitServer,
  type KitServer,
  type ServerDefinition,
  type ServerOptions,
  type SessionControl,
} from './server.js';
export {
  MAX_SUBSCRIPTIONS_PER_SESSION,
  type ResourceSubscriptions,
  refuseSubscriptions,
  registerSubscriptions,
  type StopWatching,
  type SubscriptionRegistry,
} from './subscriptions.js';
export {
  connectSystem,
  databaseOptions,
  type EmbeddedSystem,
  type SystemConnection,
  systemOptions,
} from './system.js';
export {
  type AnyTool,
  defineTool,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolUi,
  type ToolView,
} from './tools/define.js';
export { convertToolSchemas, type ToolSchemas, toJsonSchema } from './tools/json-schema.js';
export { activeTools, DEFAULT_TOOL_TIMEOUT_MS, describeTool, registerTools } from './tools/register.js';
export { describeArgumentIssues, formatArgumentIssues } from './tools/validation.js';
export {
  DISCOVERY_TOOLS,
  listingSize,
  renderToolsetsTable,
  SessionTools,
  selectToolsets,
  type ToolSwitch,
  type ToolsetState,
  toolsetOptions,
  toolsetsOf,
} from './toolsets.js';
export { DEFAULT_MAX_LINE_BYTES, StdioTransport } from './transport/stdio.js';
