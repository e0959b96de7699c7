export { describeProtocolRules, type ProtocolSuiteOptions, type ToolCallSample } from './protocol-suite.js';
