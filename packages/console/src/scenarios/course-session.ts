import type { WireMessage } from '../peer.js';
import {
  ErrorCodes,
  initializeParams,
  isSupportedVersion,
  resultOf,
  schemaViolationLayer,
  textBlocks,
  toolSummaries,
} from '../protocol.js';
import type { Session } from '../session.js';
import type { Scenario, ScenarioContext } from './scenario.js';

/** The arguments the course's lab uses: the ISS over the Mexico City station, next 24 h. */
export const PASSES_ARGS = { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24 } as const;
const UNKNOWN_SATELLITE = 99999;

/**
 * The session of the course, replayed against a server: handshake, discovery, one real tool call, then
 * both layers of errors provoked on purpose, then a clean shutdown.
 */
export const courseSession: Scenario = {
  name: 'course',
  title: "The course's MCP session",
  async run(ctx) {
    const session = ctx.openSession();
    try {
      const negotiated = await handshake(ctx, session);
      await discovery(ctx, session);
      await passes(ctx, session);
      if (ctx.errors) {
        await requestBeforeInitialize(ctx);
        await schemaViolation(ctx, session, negotiated);
        await domainError(ctx, session);
      }
    } finally {
      await shutdown(ctx, session);
    }
  },
};

/** Runs initialize + notifications/initialized and returns the negotiated protocol version. */
async function handshake(ctx: ScenarioContext, session: Session): Promise<string> {
  const { printer } = ctx;
  printer.heading(
    '1. initialize',
    `The client opens the session: it proposes protocol version ${ctx.protocolVersion} and says who it is and ` +
      'what it can do. The server answers with the version it agrees to, its capabilities and its name.',
  );
  const response = await session.request('initialize', initializeParams(ctx.protocolVersion));
  const result = resultOf(response);
  const version = typeof result?.['protocolVersion'] === 'string' ? result['protocolVersion'] : '';
  ctx.expect('initialize returns a result with a protocolVersion', version !== '', errorText(response));
  if (!version) throw new Error('the handshake failed; nothing else can run');
  if (isSupportedVersion(ctx.protocolVersion)) {
    ctx.expect(
      `the server agrees to ${ctx.protocolVersion}`,
      version === ctx.protocolVersion,
      `it answered ${version}`,
    );
  } else {
    ctx.expect(
      `the server counters the unsupported ${ctx.protocolVersion} with one it supports`,
      isSupportedVersion(version),
      `it answered ${version}`,
    );
  }
  const info = result?.['serverInfo'] as { name?: unknown; version?: unknown } | undefined;
  const capabilities = Object.keys((result?.['capabilities'] as object | undefined) ?? {});
  printer.note(
    `Server: ${String(info?.name)} ${String(info?.version)}; protocol ${version}; ` +
      `capabilities: ${capabilities.join(', ') || 'none'}.`,
  );

  printer.heading(
    '2. notifications/initialized',
    'The client confirms the handshake. It is a notification (no id), so the server sends no reply; ' +
      'from now on ordinary requests are allowed.',
  );
  session.notify('notifications/initialized');
  const early = await session.peer.quietFor(200);
  const replies = early.filter((m) => 'result' in m || 'error' in m);
  ctx.expect('no reply to the notification', replies.length === 0, `${replies.length} replies came back`);
  return version;
}

async function discovery(ctx: ScenarioContext, session: Session): Promise<void> {
  ctx.printer.heading(
    '3. tools/list',
    'The host discovers what the server offers: each tool with its name, a description that tells the ' +
      'model when to use it, and a JSON Schema for its arguments.',
  );
  const response = await session.request('tools/list');
  const tools = toolSummaries(response);
  ctx.printer.note(`${tools.length} tools:`);
  for (const tool of tools) ctx.printer.note(`  • ${tool.name}${tool.summary ? ` — ${tool.summary}` : ''}`);
  const names = new Set(tools.map((t) => t.name));
  ctx.expect(
    'tools/list offers proximos_pases and satelite_info',
    names.has('proximos_pases') && names.has('satelite_info'),
    errorText(response) || `got ${[...names].join(', ') || 'no tools'}`,
  );
}

async function passes(ctx: ScenarioContext, session: Session): Promise<void> {
  ctx.printer.heading(
    '4. tools/call proximos_pases',
    `The model asks for the passes of NORAD ${PASSES_ARGS.norad_id} (the ISS) over station ` +
      `${PASSES_ARGS.estacion} in the next ${PASSES_ARGS.horas} h. The result carries a text block for the ` +
      'model and structuredContent for programs.',
  );
  const response = await session.request('tools/call', { name: 'proximos_pases', arguments: PASSES_ARGS });
  const texts = textBlocks(response);
  for (const text of texts) ctx.printer.quote(text);
  const result = resultOf(response);
  ctx.expect(
    'proximos_pases returns a result with a text block',
    result !== undefined && result['isError'] !== true && texts.length > 0,
    errorText(response) || (result?.['isError'] === true ? `isError: ${texts.join(' ')}` : 'no text block'),
  );
}

async function requestBeforeInitialize(ctx: ScenarioContext): Promise<void> {
  ctx.printer.heading(
    '5. Protocol error: a request before initialize',
    'On a fresh connection (a second server process) the console sends tools/list without any handshake. ' +
      `Order is enforced: the server must refuse with JSON-RPC error ${ErrorCodes.ServerNotInitialized} ` +
      '"Server not initialized" and run nothing.',
  );
  const fresh = ctx.openSession('#2');
  try {
    const response = await fresh.request('tools/list');
    ctx.expect(
      `tools/list before initialize → JSON-RPC error ${ErrorCodes.ServerNotInitialized} "Server not initialized"`,
      response.error?.code === ErrorCodes.ServerNotInitialized &&
        response.error.message === 'Server not initialized',
      describeOutcome(response),
    );
  } finally {
    const exit = await fresh.close();
    ctx.printer.note(`Second connection closed: ${fresh.label} exited with code ${String(exit.code)}.`);
  }
}

async function schemaViolation(ctx: ScenarioContext, session: Session, negotiated: string): Promise<void> {
  const layer = schemaViolationLayer(negotiated);
  ctx.printer.heading(
    '6. Invalid arguments: horas = 200 (the schema allows 1–72)',
    layer === 'protocol'
      ? `Under ${negotiated} arguments that violate a tool's inputSchema are a protocol error: JSON-RPC ` +
          `error ${ErrorCodes.InvalidParams} "Invalid params". It goes to the host, never to the model.`
      : `From 2025-11-25 on (SEP-1303; negotiated: ${negotiated}) arguments that violate a tool's inputSchema ` +
          'come back as a tool result with isError: true, so the model can read the message and correct itself.',
  );
  const response = await session.request('tools/call', {
    name: 'proximos_pases',
    arguments: { ...PASSES_ARGS, horas: 200 },
  });
  if (layer === 'protocol') {
    ctx.expect(
      `schema violation → JSON-RPC error ${ErrorCodes.InvalidParams} (protocol layer)`,
      response.error?.code === ErrorCodes.InvalidParams,
      describeOutcome(response),
    );
  } else {
    ctx.expect(
      'schema violation → result with isError: true (model-visible layer)',
      resultOf(response)?.['isError'] === true,
      describeOutcome(response),
    );
  }
}

async function domainError(ctx: ScenarioContext, session: Session): Promise<void> {
  ctx.printer.heading(
    `7. Domain error: satelite_info for NORAD ${UNKNOWN_SATELLITE}`,
    'The arguments are valid, but no such satellite exists. A domain error is always a normal result ' +
      'with isError: true and a message the model can act on, whatever the protocol version.',
  );
  const response = await session.request('tools/call', {
    name: 'satelite_info',
    arguments: { norad_id: UNKNOWN_SATELLITE },
  });
  for (const text of textBlocks(response)) ctx.printer.quote(text);
  ctx.expect(
    'unknown satellite → result with isError: true (model-visible layer)',
    resultOf(response)?.['isError'] === true,
    describeOutcome(response),
  );
}

async function shutdown(ctx: ScenarioContext, session: Session): Promise<void> {
  if (session.failedToStart) return;
  ctx.printer.heading(
    '8. Shutdown',
    "The client closes the server's stdin, as a host does when it quits. The server must notice and exit " +
      'by itself, cleanly (code 0), within 2 s.',
  );
  const goneBefore = session.ended;
  const exit = await session.close();
  const how = goneBefore ?? (exit.signal ? `killed by ${exit.signal}` : `code ${String(exit.code)}`);
  if (!goneBefore) ctx.printer.note(`${session.label} exited with ${how} after ${Math.round(exit.ms)} ms.`);
  ctx.expect(
    'the server exits with code 0 within 2 s of stdin closing',
    !goneBefore && exit.code === 0 && exit.ms <= 2000,
    goneBefore
      ? `it was already gone: ${goneBefore}`
      : `it exited with ${how} after ${Math.round(exit.ms)} ms`,
  );
}

function errorText(response: WireMessage): string {
  return response.error ? `JSON-RPC error ${response.error.code} "${response.error.message}"` : '';
}

/** How a response came back, for the detail of a failed expectation. */
function describeOutcome(response: WireMessage): string {
  if (response.error) return `got ${errorText(response)}`;
  const result = resultOf(response);
  if (result?.['isError'] === true)
    return `got a result with isError: true (${textBlocks(response).join(' ')})`;
  return 'got a successful result';
}
