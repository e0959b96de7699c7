import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ClientCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, ToolView } from './define.js';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, spec 2026-01-26), followed directly rather than
 * through `@modelcontextprotocol/ext-apps/server`: its helpers wrap `McpServer.registerTool`, which the
 * kit's tool seam does not use, and what remains is two constants and the checks below.
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * Whether the client offered MCP Apps in `initialize`: `capabilities.extensions` (SEP-1724), or
 * `capabilities.experimental`, where hosts also tag it during the transition; either way its
 * `mimeTypes` must name the MCP Apps profile.
 */
export function clientOffersUi(capabilities: ClientCapabilities | undefined): boolean {
  const offer = capabilities?.extensions?.[UI_EXTENSION] ?? capabilities?.experimental?.[UI_EXTENSION];
  const mimeTypes = (offer as { mimeTypes?: unknown } | undefined)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(UI_MIME_TYPE);
}

/** A tool only a view calls (`visibility: ['app']`): hosts keep it from the model, and the kit from clients without views. */
export function isViewOnly(tool: AnyTool<unknown>): boolean {
  const visibility = tool.ui?.visibility;
  return visibility !== undefined && !visibility.includes('model');
}

/** The `tools/list` entry a client with MCP Apps sees: the plain entry plus `_meta.ui`. */
export function withUiMeta(tool: AnyTool<unknown>, entry: Tool): Tool {
  if (!tool.ui) return entry;
  const { view, visibility } = tool.ui;
  const ui = { ...(view ? { resourceUri: view.uri } : {}), ...(visibility ? { visibility } : {}) };
  // `ui/resourceUri` is the key hosts older than `_meta.ui` read; ext-apps' registerAppTool sets both too.
  return { ...entry, _meta: { ...entry._meta, ui, ...(view ? { 'ui/resourceUri': view.uri } : {}) } };
}

/**
 * Registers each tool's view once as a `ui://` resource, listed and readable only in sessions whose
 * client offered the extension: other clients' `resources/list` stays exactly as it was.
 */
export function registerViews(
  server: McpServer,
  tools: readonly AnyTool<unknown>[],
  offersUi: () => boolean,
) {
  const views = new Map<string, ToolView>();
  for (const tool of tools) if (tool.ui?.view) views.set(tool.ui.view.uri, tool.ui.view);
  for (const view of views.values()) {
    const registered = server.registerResource(
      view.name,
      view.uri,
      { title: view.title, description: view.description, mimeType: UI_MIME_TYPE },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: UI_MIME_TYPE, text: view.html }] }),
    );
    // The SDK lists and reads a resource only while `enabled`; asked per request, it follows the session's
    // client without a `list_changed` notification that toggling it after `initialize` would send.
    Object.defineProperty(registered, 'enabled', { get: offersUi, configurable: true });
  }
}
