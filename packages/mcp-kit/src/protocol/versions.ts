// Defined once in the shared protocol rules, so the lab's grader negotiates exactly as the servers do.
export {
  batchesAllowed,
  inputErrorsAreToolResults,
  isSupportedVersion,
  LATEST_PROTOCOL_VERSION,
  negotiateVersion,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@code-cluster/shared/protocol';
