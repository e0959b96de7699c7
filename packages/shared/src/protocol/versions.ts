/**
 * Protocol versions the cluster speaks, newest first (DESIGN.md §3 rule 2). Narrower than the SDK's list on
 * purpose: the SDK still accepts the 2024-10-07 draft, which no client of ours speaks.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return typeof version === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The version the server answers to a client that asked for `requested`. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * SEP-1303 (2025-11-25): arguments that violate a tool's inputSchema are reported as a tool result with
 * `isError: true`, so the model can correct itself; earlier versions answer JSON-RPC -32602.
 */
export function inputErrorsAreToolResults(version: string | undefined): boolean {
  // Date strings compare correctly as text; an unknown (never negotiated) version is treated as the newest.
  return version === undefined || version >= '2025-11-25';
}

/** JSON-RPC batches: part of MCP 2025-03-26 (and 2024-11-05), removed from 2025-06-18 on. */
export function batchesAllowed(version: string): boolean {
  return version < '2025-06-18';
}
