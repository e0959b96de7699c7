import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_APPS, serverBin } from '@code-cluster/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { ANSI, FIXTURE_SERVER, runConsole } from './helpers.js';

// The federated episode against the real, built satdt-mcp, groundstation-mcp and hub-mcp: real processes,
// real SQLite, nothing mocked. Fails (never skips) when a bundle is missing: `pnpm build` at the root first.

const scratch = mkdtempSync(join(tmpdir(), 'console-episode-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An environment whose default data dir is a throwaway: any write there would be a leak of the console. */
function isolatedEnv(name: string): Record<string, string> {
  return { XDG_DATA_HOME: join(scratch, name, 'xdg') };
}

interface JsonLine {
  server: string;
  direction: 'in' | 'out' | 'stderr';
  message?: {
    id?: number;
    method?: string;
    params?: Record<string, unknown> & { name?: string; arguments?: Record<string, unknown>; uri?: string };
    result?: Record<string, unknown>;
  };
}

const held = (stdout: string) => /\n(\d+)\/(\d+) expectations held\n$/.exec(stdout);

describe('the federated episode against the built servers', () => {
  it('satdt, groundstation and hub are built', () => {
    for (const app of ['satdt', 'groundstation', 'hub'] as const) expect(() => serverBin(app)).not.toThrow();
  });

  it('runs with no arguments on a fresh temporary data dir: every expectation holds, exit 0', async () => {
    const env = isolatedEnv('default');
    const run = await runConsole([], { env, timeoutMs: 40_000 });
    expect(run.stderr).toBe('');
    const summary = held(run.stdout);
    expect(summary, run.stdout.slice(-3000)).not.toBeNull();
    expect(summary![1]).toBe(summary![2]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(ANSI);

    // Each server's lines carry its label, and each call went to the server that owns the tool.
    for (const [label, tool] of [
      ['satdt', 'satelite_info'],
      ['satdt', 'proximos_pases'],
      ['groundstation', 'estado_estacion'],
      ['groundstation', 'agendar_contacto'],
      ['hub', 'publicar_evento'],
    ]) {
      expect(run.stdout).toMatch(
        new RegExp(`→ \\[${label}\\] request tools/call[^\\n]*\\n(?:    .*\\n)*?.*"name": "${tool}"`),
      );
    }
    expect(run.stdout).toMatch(/agendar_contacto\s+groundstation\s+Agendar un contacto/);
    expect(run.stdout).toContain('✓ expected: tool names are unique across the servers');

    // The subscriber heard of the publish and the event it read names the contact that was booked.
    expect(run.stdout).toContain(
      '← [hub#2] notification notifications/resources/updated — no reply expected',
    );
    expect(run.stdout).toContain(
      '✓ expected: hub#2 receives notifications/resources/updated for hub://topicos/contactos.orbiteye-mx within 2 s',
    );
    const contactId = /✓ expected: agendar_contacto books contact (ct-[\w-]+)/.exec(run.stdout)?.[1];
    expect(contactId).toBeDefined();
    expect(run.stdout).toContain(`▸ #1 contacto.agendado (`);
    expect(run.stdout).toContain(`"contacto_id":"${contactId}"`);
    expect(run.stdout).toContain(
      '✓ expected: all 4 server processes exit with code 0 within 2 s of stdin closing',
    );

    // The temporary data dir is gone, and nothing went to the user's data dir.
    const dataDir = /a fresh temporary one\s+\(([^)]+)\)/.exec(run.stdout)?.[1];
    expect(dataDir).toMatch(/code-console-/);
    expect(existsSync(dataDir!)).toBe(false);
    expect(existsSync(env.XDG_DATA_HOME!)).toBe(false);
  });

  it('--json: the transcript proves the hand-offs, message by message', async () => {
    const run = await runConsole(['--json'], { env: isolatedEnv('json'), timeoutMs: 40_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as JsonLine);
    expect(new Set(lines.map((l) => l.server))).toEqual(new Set(['satdt', 'groundstation', 'hub', 'hub#2']));
    const sent = (server: string, test: (m: NonNullable<JsonLine['message']>) => boolean) =>
      lines.filter((l) => l.server === server && l.direction === 'out' && l.message && test(l.message));
    const answer = (server: string, id: number | undefined) =>
      lines.find((l) => l.server === server && l.direction === 'in' && l.message?.id === id)?.message?.result;

    // tools/list is printed in full in --json mode.
    const hubTools = answer('hub', sent('hub', (m) => m.method === 'tools/list')[0]?.message?.id);
    expect(hubTools?.['tools']).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'publicar_evento' })]),
    );

    const passesCall = sent('satdt', (m) => m.params?.name === 'proximos_pases')[0]!.message!;
    expect(passesCall.params?.arguments).toEqual({ norad_id: 25544, estacion: 'orbiteye-mx', horas: 24 });
    const passesResult = answer('satdt', passesCall.id)!;
    const passes = (passesResult['structuredContent'] as { pases: Array<{ aos: string; los: string }> })
      .pases;

    const bookings = sent('groundstation', (m) => m.params?.name === 'agendar_contacto');
    expect(bookings).toHaveLength(1);
    const booking = bookings[0]!.message!;
    const pass = passes.find((p) => p.aos === booking.params?.arguments?.['inicio'])!;
    expect(pass, 'the booking uses a pass of proximos_pases').toBeDefined();
    expect(booking.params?.arguments).toMatchObject({
      estacion: 'orbiteye-mx',
      norad_id: 25544,
      fin: pass.los,
    });
    expect(Date.parse(pass.aos) - Date.now()).toBeGreaterThan(-10 * 60_000);
    const contact = answer('groundstation', booking.id)?.['structuredContent'] as {
      contacto_id: string;
      antena: string;
    };

    const publish = sent('hub', (m) => m.params?.name === 'publicar_evento')[0]!.message!;
    expect(publish.params?.arguments).toMatchObject({
      topico: 'contactos.orbiteye-mx',
      tipo: 'contacto.agendado',
      clave_idempotencia: contact.contacto_id,
      datos: {
        contacto_id: contact.contacto_id,
        norad_id: 25544,
        antena: contact.antena,
        inicio: pass.aos,
        fin: pass.los,
      },
    });

    // hub#2 subscribed before the publish, was notified after it, and read the event.
    const index = (test: (l: JsonLine) => boolean) => lines.findIndex(test);
    const subscribed = index((l) => l.server === 'hub#2' && l.message?.method === 'resources/subscribe');
    const published = index((l) => l.server === 'hub' && l.message?.params?.name === 'publicar_evento');
    const notified = index(
      (l) =>
        l.server === 'hub#2' &&
        l.direction === 'in' &&
        l.message?.method === 'notifications/resources/updated' &&
        l.message.params?.uri === 'hub://topicos/contactos.orbiteye-mx',
    );
    expect(subscribed).toBeGreaterThan(-1);
    expect(subscribed).toBeLessThan(published);
    expect(notified).toBeGreaterThan(published);
    const read = sent('hub#2', (m) => m.method === 'resources/read')[0]!.message!;
    const contents = answer('hub#2', read.id)?.['contents'] as Array<{ text: string }>;
    const events = (JSON.parse(contents[0]!.text) as { events: Array<{ data: { contacto_id: string } }> })
      .events;
    expect(events.map((e) => e.data.contacto_id)).toContain(contact.contacto_id);
  });

  it('re-running with the same --data-dir still succeeds: taken passes give way to free ones', async () => {
    const dataDir = join(scratch, 'kept');
    const runs = [];
    // One contact per satellite at a time: the second run finds the first pass taken and books the next.
    for (let n = 0; n < 3; n++) {
      const run = await runConsole(['--data-dir', dataDir], { env: isolatedEnv('kept'), timeoutMs: 40_000 });
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      expect(run.stdout.replace(/\s+/g, ' ')).toContain(
        `Data dir: ${dataDir} (--data-dir; bookings and events stay there).`,
      );
      runs.push(run.stdout);
    }
    const contacts = runs.map((stdout) =>
      /agendar_contacto books contact (ct-[\w-]+)|already booked for NORAD 25544 \(contact (ct-[\w-]+)\)/.exec(
        stdout,
      ),
    );
    expect(contacts.every(Boolean)).toBe(true);
    expect(contacts[0]![1]).not.toBe(contacts[1]![1]);
    expect(runs[1]!.replace(/\s+/g, ' ')).toContain('This pass is already taken at orbiteye-mx');
    expect(runs[1]).toMatch(/NORAD 25544 ya tiene un contacto en orbiteye-mx/);
    // The user's directory is kept, with the servers' databases in it.
    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
  });
});

describe('the unified catalog', () => {
  it('SERVER_APPS lists the servers the episode needs', () => {
    expect(SERVER_APPS).toEqual(expect.arrayContaining(['satdt', 'groundstation', 'hub']));
  });

  it('code-console catalog: every tool of every built server, with its server', async () => {
    const run = await runConsole(['catalog'], { env: isolatedEnv('catalog'), timeoutMs: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`\\d+ tools from ${SERVER_APPS.length} servers \\(${SERVER_APPS.join(', ')}\\)`),
    );
    for (const [tool, server] of [
      ['satelite_info', 'satdt'],
      ['proximos_pases', 'satdt'],
      ['agendar_contacto', 'groundstation'],
      ['estado_estacion', 'groundstation'],
      ['publicar_evento', 'hub'],
      ['leer_eventos', 'hub'],
    ]) {
      expect(run.stdout).toMatch(new RegExp(`\\n  ${tool} +${server} `));
    }
  });

  it('catalog --json: one line per tool; names are unique and every server is there', async () => {
    const run = await runConsole(['catalog', '--json'], { env: isolatedEnv('catalog'), timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const entries = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; server: string; description: string });
    expect(new Set(entries.map((e) => e.server))).toEqual(new Set(SERVER_APPS));
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
    for (const entry of entries) expect(entry.description).not.toBe('');
  });

  it('refuses, with exit 1 and a clear message, a server whose tool names clash with the cluster', async () => {
    // The fixture server offers satdt's two course tools under the same names.
    const run = await runConsole(['catalog', '--', process.execPath, FIXTURE_SERVER], {
      env: isolatedEnv('catalog'),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('code-console: tool names must be unique across the cluster, but');
    expect(run.stderr).toContain('satelite_info is offered by satdt and fixture-server');
    expect(run.stderr).toContain('proximos_pases is offered by satdt and fixture-server');
  });

  it('two processes of one server clash too', async () => {
    const run = await runConsole(['catalog', '--server', 'hub', '--server', 'hub'], {
      env: isolatedEnv('catalog'),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('publicar_evento is offered by hub and hub#2');
  });
});
