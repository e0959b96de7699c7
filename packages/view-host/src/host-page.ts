// The host's side of MCP Apps in the browser, with ext-apps' own AppBridge: the view under test talks to
// the reference host implementation, not to a copy of our own reading of the spec.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';

declare global {
  interface Window {
    /** Exposed by the harness: forwards a view's `tools/call` to the real server over stdio. */
    harnessCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    showView(html: string, result: CallToolResult, hostContext: Record<string, unknown>): Promise<void>;
    /** The bridge of the view on show, for tests that change the host context afterwards. */
    hostBridge: AppBridge;
  }
}

window.showView = async (html, result, hostContext) => {
  const iframe = document.createElement('iframe');
  // What hosts do: scripts run, but in an opaque origin with no access to the host page.
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Vista MCP Apps';
  iframe.style.cssText = 'width: 900px; height: 560px; border: 0; display: block;';
  document.body.append(iframe);
  const view = iframe.contentWindow as Window;

  const bridge = new AppBridge(
    null,
    { name: 'code-cluster-view-host', version: '0.1.0' },
    { serverTools: {}, logging: {} },
    { hostContext },
  );
  window.hostBridge = bridge;
  bridge.oncalltool = (params) => window.harnessCallTool(params);
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // Listening before the view's document exists: its `ui/initialize` may come as soon as its script runs.
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolResult(result);
};
