// solicitar_acceso_operador: a `consulta` session becomes an operator's when the person types the operator
// credential on a one-time loopback page the server opens for a URL-mode elicitation (MCP 2025-11-25). A
// real SDK client plays the host, and a real HTTP client (fetch) the person's browser. The credential never
// appears in a result, a notification or a log line.
import { Logger } from '@code-cluster/mcp-kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { after, connectEmbedded, textOf } from './helpers.js';

const CREDENTIAL = 'credencial-de-operador-para-pruebas';
const URL_AND_FORM = { elicitation: { url: {}, form: {} } };

type Browser = (url: string) => Promise<void>;

/** Types `typed` into the page, as a person in a browser would: GET the form, POST the field. */
const typing =
  (typed: string, seen: { form?: string; status?: number; again?: number } = {}): Browser =>
  async (url) => {
    const page = await fetch(url);
    seen.form = await page.text();
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ credencial: typed }).toString(),
    });
    seen.status = sent.status;
    await sent.text();
  };

async function session(options: {
  capabilities?: Record<string, unknown>;
  answer?: ElicitResult['action'];
  browser?: Browser;
  confirm?: boolean;
  credential?: string | undefined;
  toolTimeoutMs?: number;
  readOnly?: boolean;
}) {
  const lines: string[] = [];
  const logger = new Logger('groundstation-mcp-test', 'debug', (line) => lines.push(line));
  const s = await connectEmbedded({
    capabilities: options.capabilities ?? URL_AND_FORM,
    elevation: {
      ...('credential' in options ? { credential: options.credential } : { credential: CREDENTIAL }),
      confirm: options.confirm ?? false,
    },
    ...(options.toolTimeoutMs ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
    logger,
  });
  const asked: ElicitRequest['params'][] = [];
  const traffic: unknown[] = [];
  let browsing: Promise<void> | undefined;
  // The SDK refuses a handler for a feature the client did not declare.
  if (options.capabilities?.elicitation !== undefined || !options.capabilities)
    s.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      traffic.push(request.params);
      const action = options.answer ?? 'accept';
      if (action === 'accept' && request.params.mode === 'url' && options.browser) {
        // The host answers once the person agreed to open the page; the page is used after that.
        browsing = new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
          options.browser!((request.params as { url: string }).url),
        );
      }
      return action === 'accept' && request.params.mode !== 'url'
        ? { action, content: { confirmar: true } }
        : { action };
    });
  let listChanged = 0;
  s.client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
    listChanged++;
    traffic.push(n);
  });
  const completed: string[] = [];
  s.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    completed.push(n.params.elicitationId);
    traffic.push(n);
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await s.client.callTool({ name, arguments: args })) as CallToolResult;
    traffic.push(result);
    return result;
  };
  const names = async () => (await s.client.listTools()).tools.map((t) => t.name);
  return {
    ...s,
    asked,
    call,
    names,
    completed,
    lines,
    traffic,
    listChanged: () => listChanged,
    browsed: () => browsing,
  };
}

const leaks = (s: { traffic: unknown[]; lines: string[] }) =>
  JSON.stringify(s.traffic).includes(CREDENTIAL) || s.lines.some((l) => l.includes(CREDENTIAL));

const maintenance = (client: Client) =>
  client.callTool({
    name: 'programar_mantenimiento',
    arguments: { estacion: 'orbiteye-mx', inicio: after(600), fin: after(660), motivo: 'cambio de LNA' },
  }) as Promise<CallToolResult>;

describe('solicitar_acceso_operador with URL-mode elicitation', () => {
  it('elevates the session once the credential is typed on the page, and says so to the client', async () => {
    const seen: { form?: string; status?: number } = {};
    const s = await session({ browser: typing(CREDENTIAL, seen) });
    expect(await s.names()).toContain('solicitar_acceso_operador');
    expect(await s.names()).not.toContain('programar_mantenimiento');
    expect(s.client.getServerCapabilities()?.tools?.listChanged).toBe(true);

    const result = await s.call('solicitar_acceso_operador');
    await s.browsed();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      acceso: 'operador',
      cambiado: true,
      herramientas: ['programar_mantenimiento', 'cancelar_mantenimiento'],
    });

    // One URL-mode question: a loopback page of its own, its id completed once the page was sent.
    expect(s.asked).toHaveLength(1);
    const asked = s.asked[0] as { mode: string; url: string; elicitationId: string; message: string };
    expect(asked.mode).toBe('url');
    expect(asked.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}$/);
    expect(s.completed).toEqual([asked.elicitationId]);
    // A plain form: POST, one password field, no script.
    expect(seen.form).toMatch(/<form method="post"/);
    expect(seen.form).toContain('type="password"');
    expect(seen.form).not.toContain('<script');
    expect(seen.status).toBe(200);

    expect(s.listChanged()).toBe(1);
    const now = await s.names();
    expect(now).toEqual(expect.arrayContaining(['programar_mantenimiento', 'dejar_acceso_operador']));
    expect(now).not.toContain('solicitar_acceso_operador');
    // The rights are real: the system takes the operator action.
    const programmed = await maintenance(s.client);
    expect(programmed.isError).toBeFalsy();

    // Single use: the page is gone.
    await expect(fetch(asked.url)).rejects.toThrow();
    expect(leaks(s)).toBe(false);
    await s.close();
  });

  it('grants nothing for a wrong credential, and the page does not take a second try', async () => {
    const seen: { status?: number } = {};
    const s = await session({ browser: typing('otra-cosa', seen) });
    const result = await s.call('solicitar_acceso_operador');
    await s.browsed();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ acceso: 'consulta', cambiado: false, herramientas: [] });
    expect(textOf(result)).toContain('la credencial escrita no coincide');
    expect(seen.status).toBe(403);
    expect(s.listChanged()).toBe(0);
    expect(await s.names()).not.toContain('programar_mantenimiento');
    const url = (s.asked[0] as { url: string }).url;
    await expect(fetch(url, { method: 'POST', body: `credencial=${CREDENTIAL}` })).rejects.toThrow();
    expect(leaks(s)).toBe(false);
    await s.close();
  });

  it('grants nothing when the person declines to open the page, and closes it', async () => {
    const s = await session({ answer: 'decline' });
    const result = await s.call('solicitar_acceso_operador');
    expect(textOf(result)).toBe('No se concedió el acceso de operador: La persona no quiso abrir la página.');
    await expect(fetch((s.asked[0] as { url: string }).url)).rejects.toThrow();
    expect(s.completed).toEqual([]);
    await s.close();
  });

  it('ends within the tool timeout when the page is never sent, and the page goes with it', async () => {
    const s = await session({ toolTimeoutMs: 1500 });
    const result = await s.call('solicitar_acceso_operador');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ acceso: 'consulta', cambiado: false });
    expect(textOf(result)).toContain('no se envió la página a tiempo');
    await expect(fetch((s.asked[0] as { url: string }).url)).rejects.toThrow();
    expect(await s.names()).not.toContain('programar_mantenimiento');
    await s.close();
  });

  it('dejar_acceso_operador gives the rights back', async () => {
    const s = await session({ browser: typing(CREDENTIAL) });
    await s.call('solicitar_acceso_operador');
    const dropped = await s.call('dejar_acceso_operador');
    expect(dropped.structuredContent).toMatchObject({ acceso: 'consulta', cambiado: true });
    expect(s.listChanged()).toBe(2);
    const now = await s.names();
    expect(now).toContain('solicitar_acceso_operador');
    expect(now).not.toContain('programar_mantenimiento');
    expect(now).not.toContain('dejar_acceso_operador');
    // Gone from this session as if it never had it: an unknown tool.
    await expect(maintenance(s.client)).rejects.toThrow(
      /-32602: Herramienta desconocida: 'programar_mantenimiento'/,
    );
    await s.close();
  });
});

describe('solicitar_acceso_operador without URL-mode elicitation', () => {
  it('never asks a form for the credential, and says how to get the rights', async () => {
    const s = await session({ capabilities: { elicitation: { form: {} } } });
    const result = await s.call('solicitar_acceso_operador');
    expect(s.asked).toEqual([]);
    expect(textOf(result)).toContain('el cliente no admite elicitation por URL');
    expect(textOf(result)).toContain('--scope operador');
    await s.close();
  });

  it('asks a yes/no of a form-only client only when the operator allowed it (GROUNDSTATION_ELEVATION=confirm)', async () => {
    const s = await session({ capabilities: { elicitation: { form: {} } }, confirm: true });
    const result = await s.call('solicitar_acceso_operador');
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]?.mode ?? 'form').toBe('form');
    expect(JSON.stringify(s.asked[0])).not.toContain('password');
    expect(result.structuredContent).toMatchObject({ acceso: 'operador', cambiado: true });
    await s.close();
  });

  it('says how to get the rights to a client without elicitation', async () => {
    const s = await session({ capabilities: {} });
    const result = await s.call('solicitar_acceso_operador');
    expect(textOf(result)).toContain('el cliente no admite elicitation.');
    expect(result.structuredContent).toMatchObject({ cambiado: false });
    await s.close();
  });

  it('says there is nothing to grant under --read-only', async () => {
    const s = await session({ readOnly: true });
    const result = await s.call('solicitar_acceso_operador');
    expect(s.asked).toEqual([]);
    expect(textOf(result)).toContain('modo solo lectura');
    await s.close();
  });
});
