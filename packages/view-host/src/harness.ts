import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBin } from '@code-cluster/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';

/** Debian's `chromium`; CHROMIUM_PATH points elsewhere (a test never downloads a browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST_ORIGIN = 'http://view-host.test';
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';

/** Where each test run leaves its screenshots (next to the workspace's JSON reports when there is one). */
export const OUTPUT_DIR = resolve(
  process.env.CODE_CLUSTER_TEST_RESULTS ?? fileURLToPath(new URL('../.test-results', import.meta.url)),
  'views',
);

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** The host page's script: ext-apps' AppBridge and our glue, bundled for the browser. */
async function hostScript(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./host-page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

/** A real MCP client of a built server that offers MCP Apps, as a host that renders views would. */
export async function connectAppsClient(
  app: 'satdt' | 'roverdt',
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client(
    { name: 'code-cluster-view-host', version: '0.1.0' },
    { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverBin(app)],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The HTML of the view a tool names in `_meta.ui.resourceUri`, read from the server like a host does. */
export async function readView(client: Client, tool: string): Promise<string> {
  const { tools } = await client.listTools();
  const uri = (tools.find((t) => t.name === tool)?._meta?.ui as { resourceUri?: string } | undefined)
    ?.resourceUri;
  if (!uri) throw new Error(`${tool} names no view`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0] as { mimeType?: string; text?: string } | undefined;
  if (content?.mimeType !== MIME || !content.text) throw new Error(`${uri} is not an MCP Apps view`);
  return content.text;
}

export interface ViewSession {
  page: Page;
  view: Frame;
  /** Every request the page or the view tried beyond the host page itself (the views must make none). */
  network: string[];
  consoleErrors: string[];
  /** The view's `tools/call` requests through the host, with the server's answers. */
  toolCalls: Array<{ params: CallToolRequest['params']; result: CallToolResult }>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export class ViewHost {
  private constructor(
    private readonly browser: Browser,
    private readonly script: string,
  ) {}

  static async launch(): Promise<ViewHost> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        // Keeps the sandboxed view in the host page's process, where the driver follows its navigation and
        // sees its requests; what the view may do (scripts only, an opaque origin) is unchanged.
        '--disable-features=IsolateSandboxedIframes',
      ],
    });
    return new ViewHost(browser, await hostScript());
  }

  /** Loads the view in a sandboxed iframe of a host page, hands it `result` and waits for `ready` in the view. */
  async show(
    client: Client,
    html: string,
    result: CallToolResult,
    options: { theme?: 'light' | 'dark'; ready: string },
  ): Promise<ViewSession> {
    const context = await this.browser.newContext({ viewport: { width: 960, height: 640 } });
    const page = await context.newPage();
    const network: string[] = [];
    const consoleErrors: string[] = [];
    const toolCalls: ViewSession['toolCalls'] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    // On the context, not the page: Chromium runs a sandboxed view in its own process (an out-of-process
    // iframe), whose requests a page-level route does not see.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `${HOST_ORIGIN}/`) {
        return route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><script>${this.script}</script></body></html>`,
        });
      }
      network.push(url);
      return route.abort();
    });
    await page.exposeFunction('harnessCallTool', async (params: CallToolRequest['params']) => {
      const answer = (await client.callTool(params)) as CallToolResult;
      toolCalls.push({ params, result: answer });
      return answer;
    });
    await page.goto(`${HOST_ORIGIN}/`);
    const theme = options.theme ?? 'light';
    await page.evaluate(([h, r, c]) => window.showView(h, r, c), [
      html,
      result,
      { theme, locale: 'es-MX', timeZone: 'America/Mexico_City', displayMode: 'inline' },
    ] as const);
    const view = page.frames().find((frame) => frame.url() === 'about:srcdoc' && !frame.isDetached());
    if (!view) throw new Error('the view iframe did not load');
    await view.waitForSelector(options.ready);
    return {
      page,
      view,
      network,
      consoleErrors,
      toolCalls,
      screenshot: async (name) => {
        mkdirSync(OUTPUT_DIR, { recursive: true });
        const path = resolve(OUTPUT_DIR, `${name}.png`);
        await page.locator('iframe').screenshot({ path });
        return path;
      },
      close: () => context.close(),
    };
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
