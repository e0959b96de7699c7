export { describeProtocolRules, type ProtocolSuiteOptions, type ToolCallSample } from './protocol-suite.js';
export { trackPeers } from './track-peers.js';
export { describeUnreachableSystem, type UnreachableSystemOptions } from './unreachable-system.js';
