import {
  classifyLine as classifySharedLine,
  classifyMessage as classifySharedMessage,
  type Incoming as SharedIncoming,
} from '@code-cluster/shared/protocol';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

// The classification rules live in the shared protocol definitions, where the lab's transcript grader uses
// them too; this module only narrows their structural message type to the SDK's.
export { isValidId, parseLine } from '@code-cluster/shared/protocol';

/** What one incoming line is (DESIGN.md §3 rule 3), with messages typed as the SDK's `JSONRPCMessage`. */
export type Incoming = SharedIncoming<JSONRPCMessage>;

// A message classified as a request, notification or response passed the very checks that make it a
// `JSONRPCMessage`, so the narrowing is sound.
export const classifyMessage = classifySharedMessage as (value: unknown) => Incoming;
export const classifyLine = classifySharedLine as (line: string) => Incoming;
