// Who publishes the servers, in one place: every package.json's repository and mcpName, the .mcpb
// manifests and the registry entries take these (a test checks the package.json files agree).

/** The MCP Registry namespace (reverse DNS of the GitHub owner, which the registry can verify). */
export const NAMESPACE = 'io.github.code-academy';
export const REPOSITORY_URL = 'https://github.com/code-academy/code-cluster-mcp';
export const AUTHOR = { name: 'CO.DE Academy', url: REPOSITORY_URL };
export const LICENSE = 'Apache-2.0';

/** The registry name of a server: `<namespace>/<bin>`. */
export function registryName(bin) {
  return `${NAMESPACE}/${bin}`;
}

/** Where a release's .mcpb is downloaded from (the registry takes GitHub release assets). */
export function mcpbUrl(bin, version) {
  return `${REPOSITORY_URL}/releases/download/v${version}/${bin}-${version}.mcpb`;
}
