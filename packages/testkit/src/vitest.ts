export { describeProtocolRules, type ProtocolSuiteOptions, type ToolCallSample } from './protocol-suite.js';
export {
  argumentsOf,
  describeToolSurface,
  READ_ONLY,
  type ToolHints,
  type ToolSurfaceOptions,
  writes,
} from './tool-surface.js';
export { trackPeers } from './track-peers.js';
export { describeUnreachableSystem, type UnreachableSystemOptions } from './unreachable-system.js';
