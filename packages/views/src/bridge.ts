/**
 * The view's side of MCP Apps (JSON-RPC 2.0 over postMessage with the host, spec 2026-01-26). Written
 * here rather than taken from `@modelcontextprotocol/ext-apps`' `App`, which brings the SDK's Protocol
 * and zod with it (~330 KB): a view speaks six messages and must stay small.
 */

export const PROTOCOL_VERSION = '2026-01-26';

export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface HostContext {
  theme?: 'light' | 'dark';
  locale?: string;
  timeZone?: string;
  styles?: { variables?: Record<string, string | undefined> };
}

interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export class ViewBridge {
  context: HostContext = {};
  hostCapabilities: Record<string, unknown> = {};
  onToolResult: (result: ToolResult) => void = () => {};
  onToolInput: (args: Record<string, unknown>) => void = () => {};
  onContextChanged: (context: HostContext) => void = () => {};
  private nextId = 1;
  private pending = new Map<number | string, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(private readonly appName: string) {
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent) return;
      this.receive(event.data as Message);
    });
  }

  /** `ui/initialize`, then `ui/notifications/initialized`: the host sends the tool's data only after it. */
  async connect(): Promise<HostContext> {
    const result = (await this.request('ui/initialize', {
      protocolVersion: PROTOCOL_VERSION,
      appInfo: { name: this.appName, version: '0.1.0' },
      appCapabilities: {},
    })) as { hostContext?: HostContext; hostCapabilities?: Record<string, unknown> };
    this.context = result.hostContext ?? {};
    this.hostCapabilities = result.hostCapabilities ?? {};
    applyContext(this.context);
    this.notify('ui/notifications/initialized', {});
    this.reportSize();
    return this.context;
  }

  /** Calls a tool of this view's own server through the host (the only server a view can reach). */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request('tools/call', { name, arguments: args })) as ToolResult;
  }

  canCallTools(): boolean {
    return this.hostCapabilities.serverTools !== undefined;
  }

  private reportSize(): void {
    const send = () => {
      const { scrollWidth: width, scrollHeight: height } = document.documentElement;
      this.notify('ui/notifications/size-changed', { width, height });
    };
    new ResizeObserver(send).observe(document.documentElement);
  }

  private receive(message: Message): void {
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case 'ui/notifications/tool-result':
        this.onToolResult(params as ToolResult);
        break;
      case 'ui/notifications/tool-input':
        this.onToolInput((params.arguments as Record<string, unknown>) ?? {});
        break;
      case 'ui/notifications/host-context-changed':
        this.context = { ...this.context, ...(params as HostContext) };
        applyContext(this.context);
        this.onContextChanged(this.context);
        break;
      default:
        if (message.id !== undefined) {
          // `ping` and `ui/resource-teardown` ask only for an empty answer; anything else is unknown.
          const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
          this.post(
            known
              ? { jsonrpc: '2.0', id: message.id, result: {} }
              : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } },
          );
        }
    }
  }

  private request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.post({ jsonrpc: '2.0', method, params });
  }

  private post(message: Message): void {
    window.parent.postMessage(message, '*');
  }
}

/** The host's theme and style variables on the document; without them the view follows the system. */
function applyContext(context: HostContext): void {
  const root = document.documentElement;
  if (context.theme) root.dataset.theme = context.theme;
  for (const [key, value] of Object.entries(context.styles?.variables ?? {})) {
    if (key.startsWith('--') && value) root.style.setProperty(key, value);
  }
}

/** Okabe–Ito (its yellow and black left out: too faint on one of the two themes): colours told apart with every common colour-vision deficiency. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}
