import { formatCatalog, ToolNameClashError } from '../catalog.js';
import { describeResponse, type Host } from '../host.js';
import type { WireMessage } from '../peer.js';
import { resultOf, textBlocks } from '../protocol.js';
import type { Session } from '../session.js';
import type { HostContext, HostScenario } from './scenario.js';

/** The course's episode: the ISS over the Mexico City station in the next 24 h. */
export const EPISODE = { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24 } as const;
export const EPISODE_TOPIC = `contactos.${EPISODE.estacion}`;
export const EPISODE_TOPIC_URI = `hub://topicos/${EPISODE_TOPIC}`;
export const EVENT_TYPE = 'contacto.agendado';

/** A pass that starts sooner than this is not booked (the booking must reach the station in time). */
const MIN_LEAD_MS = 60_000;
/** groundstation books contacts of at least a minute. */
const MIN_CONTACT_MS = 60_000;
/** How long the subscriber may take to hear of the publish. */
export const UPDATE_WITHIN_MS = 2_000;
/** DESIGN.md §3.5: stdin closing ends a server within 2 s. */
const EXIT_WITHIN_MS = 2_000;

/** Which server each step's tool must come from. */
const ROUTES = {
  satelite_info: 'satdt',
  proximos_pases: 'satdt',
  estado_estacion: 'groundstation',
  agendar_contacto: 'groundstation',
  publicar_evento: 'hub',
} as const;

interface Pass {
  aos: string;
  tca?: string;
  los: string;
  elevacion_max_deg?: number;
}

interface Contact {
  contacto_id: string;
  estacion: string;
  antena: string;
  banda?: string;
  norad_id: number;
  inicio: string;
  fin: string;
}

/**
 * The federated episode: a host with one session per server plans, books and announces a contact, and a
 * second client of the hub hears about it through a resource subscription.
 */
export const episode: HostScenario = {
  name: 'episode',
  title: 'The federated episode: satdt → groundstation → hub',
  async run(ctx) {
    const { host } = ctx;
    const [satdt, groundstation, hub] = await connect(ctx);
    await catalog(ctx, [satdt, groundstation, hub]);
    const satellite = await satelliteInfo(ctx);
    const candidates = await passes(ctx);
    await stationStatus(ctx);
    const subscriber = await subscribe(ctx);
    const booking = await book(ctx, candidates, satellite);
    const updated = subscriber.waitForInbound(isUpdateOf(EPISODE_TOPIC_URI), UPDATE_WITHIN_MS + 3_000);
    const sentAt = performance.now();
    const published = await publish(ctx, booking, satellite);
    await hearUpdate(ctx, subscriber, updated, sentAt, published.duplicate);
    await readTopic(ctx, subscriber, booking.contact);
    await shutdown(ctx, host);
  },
};

async function connect(ctx: HostContext): Promise<[Session, Session, Session]> {
  const { host, printer } = ctx;
  printer.heading(
    '1. Three servers, three sessions',
    'The host starts each server as its own child process over stdio — with its embedded system, so no ' +
      'configuration is needed — and opens one client session per server: initialize, then ' +
      `notifications/initialized. Every line below is labelled with the server it belongs to.`,
  );
  // All three start at once; the handshakes then run one after the other so the transcript reads in order.
  const sessions = (['satdt', 'groundstation', 'hub'] as const).map((app) => host.open({ kind: 'app', app }));
  for (const session of sessions) {
    const result = await host.initialize(session);
    const info = result['serverInfo'] as { name?: unknown; version?: unknown } | undefined;
    ctx.expect(
      `${session.label}: the handshake completes (${String(info?.name)}, protocol ${String(result['protocolVersion'])})`,
      true,
    );
    if (session.label === 'hub') {
      const resources = (result['capabilities'] as { resources?: { subscribe?: unknown } } | undefined)
        ?.resources;
      ctx.expect(
        'hub declares resources.subscribe in its capabilities',
        resources?.subscribe === true,
        `capabilities.resources is ${JSON.stringify(resources)}`,
      );
    }
  }
  return sessions as [Session, Session, Session];
}

async function catalog(ctx: HostContext, sessions: Session[]): Promise<void> {
  const { host, printer } = ctx;
  printer.heading(
    '2. The unified catalog',
    'tools/list on every session, merged into one catalog. A host routes a tool call by the tool name ' +
      'alone, so names must be unique across the cluster: two servers offering the same name would make the ' +
      'route ambiguous, and the host refuses to go on. (The tools/list bodies are abridged here; --json ' +
      'prints them in full.)',
  );
  try {
    await host.discover(sessions);
  } catch (error) {
    if (error instanceof ToolNameClashError)
      ctx.expect('tool names are unique across the servers', false, error.message);
    throw error;
  }
  printer.block(formatCatalog(host.catalog));
  ctx.expect(
    `tool names are unique across the servers (${host.catalog.length} tools from ${sessions.length} servers)`,
    true,
  );
  const misrouted = Object.entries(ROUTES).filter(([tool, server]) => host.ownerOf(tool) !== server);
  ctx.expect(
    'the catalog routes every tool of the episode to its server',
    misrouted.length === 0,
    misrouted
      .map(([tool, server]) => `${tool}: expected ${server}, got ${host.ownerOf(tool) ?? 'none'}`)
      .join('; '),
  );
}

async function satelliteInfo(ctx: HostContext): Promise<{ name: string }> {
  ctx.printer.heading(
    `3. satelite_info {norad_id: ${EPISODE.norad_id}} → satdt`,
    'What satellite is this? The catalog sends the call to satdt, the satellite digital twin.',
  );
  const response = await callTool(ctx, 'satelite_info', { norad_id: EPISODE.norad_id });
  const data = structured(response);
  const name = typeof data?.['nombre'] === 'string' ? data['nombre'] : `NORAD ${EPISODE.norad_id}`;
  ctx.expect(
    `satelite_info names NORAD ${EPISODE.norad_id}`,
    succeeded(response) && data?.['nombre'] !== undefined,
    outcome(response),
  );
  return { name };
}

/** proximos_pases, then the passes worth booking, in order: far enough ahead and long enough. */
async function passes(ctx: HostContext): Promise<Pass[]> {
  const { printer } = ctx;
  printer.heading(
    `4. proximos_pases {norad_id: ${EPISODE.norad_id}, estacion: '${EPISODE.estacion}', horas: ${EPISODE.horas}} → satdt`,
    'When will it fly over the station? Real SGP4 propagation over the next 24 h; structuredContent.pases ' +
      'carries each pass with its AOS (rise above the mask) and LOS (set).',
  );
  const response = await callTool(ctx, 'proximos_pases', { ...EPISODE });
  const all = (structured(response)?.['pases'] as Pass[] | undefined) ?? [];
  const now = Date.now();
  const candidates: Pass[] = [];
  for (const [index, pass] of all.entries()) {
    const lead = Date.parse(pass.aos) - now;
    const length = Date.parse(pass.los) - Date.parse(pass.aos);
    const why =
      lead < MIN_LEAD_MS
        ? lead <= 0
          ? 'it has already started'
          : 'it starts in less than a minute'
        : length < MIN_CONTACT_MS
          ? `it lasts ${Math.round(length / 1000)} s, under the station's one-minute minimum`
          : undefined;
    if (why) printer.note(`Pass ${index + 1} (AOS ${pass.aos}) is skipped: ${why}.`);
    else candidates.push(pass);
  }
  const first = candidates[0];
  if (first) {
    printer.note(
      `Pass to book: AOS ${first.aos} → LOS ${first.los}` +
        (first.elevacion_max_deg !== undefined ? `, max elevation ${first.elevacion_max_deg}°` : '') +
        (candidates.length > 1 ? ` (${candidates.length - 1} more in reserve).` : '.'),
    );
  }
  ctx.expect(
    'proximos_pases returns a pass that can still be booked',
    succeeded(response) && first !== undefined,
    succeeded(response) ? `${all.length} passes, none bookable` : outcome(response),
  );
  if (!first) throw new Error('there is no pass to book');
  return candidates;
}

async function stationStatus(ctx: HostContext): Promise<void> {
  ctx.printer.heading(
    `5. estado_estacion {estacion: '${EPISODE.estacion}'} → groundstation`,
    'Can the station take the contact? The ground station reports its status, antennas and health.',
  );
  const response = await callTool(ctx, 'estado_estacion', { estacion: EPISODE.estacion });
  const state = structured(response)?.['estado'];
  ctx.expect(
    `${EPISODE.estacion} is operational`,
    succeeded(response) && state === 'operativa',
    succeeded(response) ? `its status is ${String(state)}` : outcome(response),
  );
}

async function subscribe(ctx: HostContext): Promise<Session> {
  const { host, printer } = ctx;
  printer.heading(
    `6. A second hub client subscribes to ${EPISODE_TOPIC_URI}`,
    'Someone else wants to hear about new contacts: another client with its own hub-mcp process (hub#2) on ' +
      'the same data dir. It subscribes to the topic resource before anything is published; the hub must ' +
      'then send it notifications/resources/updated on every publish, even one made through another process.',
  );
  const subscriber = host.open({ kind: 'app', app: 'hub' }, '#2');
  await host.initialize(subscriber);
  const response = await subscriber.request('resources/subscribe', { uri: EPISODE_TOPIC_URI });
  ctx.expect(
    `hub#2 subscribes to ${EPISODE_TOPIC_URI}`,
    resultOf(response) !== undefined,
    describeResponse(response),
  );
  return subscriber;
}

interface Booking {
  contact: Contact;
  pass: Pass;
  /** false: every pass was taken and an earlier booking of the first one is used instead. */
  fresh: boolean;
}

/**
 * Books the first candidate pass. A pass whose every antenna is taken (earlier runs on the same data dir)
 * gives way to the next one; when all are taken, the contact an earlier run booked for the first pass
 * counts as already booked.
 */
async function book(ctx: HostContext, candidates: Pass[], satellite: { name: string }): Promise<Booking> {
  const { printer } = ctx;
  printer.heading(
    '7. agendar_contacto for the pass → groundstation',
    `Book an antenna of ${EPISODE.estacion} for ${satellite.name} from the pass's AOS to its LOS. The ` +
      'station refuses, with a domain error naming the conflict, when every antenna is taken in that window.',
  );
  for (const [index, pass] of candidates.entries()) {
    const response = await callTool(ctx, 'agendar_contacto', {
      estacion: EPISODE.estacion,
      norad_id: EPISODE.norad_id,
      inicio: pass.aos,
      fin: pass.los,
    });
    const contact = structured(response) as Contact | undefined;
    if (succeeded(response) && typeof contact?.contacto_id === 'string') {
      ctx.expect(`agendar_contacto books contact ${contact.contacto_id} on antenna ${contact.antena}`, true);
      return { contact, pass, fresh: true };
    }
    if (!isTaken(response)) {
      ctx.expect('agendar_contacto books the pass', false, outcome(response));
      throw new Error('the contact could not be booked');
    }
    printer.note(
      `This pass is already taken at ${EPISODE.estacion} (see the conflict above: earlier ` +
        'runs on this data dir, or other clients of it). ' +
        (index + 1 < candidates.length ? 'Trying the next pass.' : 'No pass is left to try.'),
    );
  }
  return alreadyBooked(ctx, candidates[0]!);
}

/** Every pass is taken: find the contact an earlier run booked for the first one and go on with it. */
async function alreadyBooked(ctx: HostContext, pass: Pass): Promise<Booking> {
  ctx.printer.note(
    `Every pass of the next ${EPISODE.horas} h is fully booked, so the first one counts as already booked: ` +
      'agenda_estacion finds the contact an earlier run made for it.',
  );
  const response = await callTool(ctx, 'agenda_estacion', {
    estacion: EPISODE.estacion,
    horas: EPISODE.horas,
  });
  const contacts = (structured(response)?.['contactos'] as Contact[] | undefined) ?? [];
  const contact = contacts.find(
    (c) =>
      c.norad_id === EPISODE.norad_id &&
      Date.parse(c.inicio) === Date.parse(pass.aos) &&
      Date.parse(c.fin) === Date.parse(pass.los),
  );
  ctx.expect(
    `the pass is already booked for NORAD ${EPISODE.norad_id}${contact ? ` (contact ${contact.contacto_id})` : ''}`,
    contact !== undefined,
    succeeded(response) ? 'the agenda has no contact of this satellite in that window' : outcome(response),
  );
  if (!contact) throw new Error('the contact could not be booked');
  return { contact, pass, fresh: false };
}

async function publish(
  ctx: HostContext,
  booking: Booking,
  satellite: { name: string },
): Promise<{ duplicate: boolean }> {
  const { contact, pass } = booking;
  ctx.printer.heading(
    `8. publicar_evento on ${EPISODE_TOPIC} → hub`,
    'Announce the contact to the rest of the cluster. The contact id is the idempotency key: a retry of ' +
      'this announcement can never publish it twice.',
  );
  const response = await callTool(ctx, 'publicar_evento', {
    topico: EPISODE_TOPIC,
    tipo: EVENT_TYPE,
    datos: {
      contacto_id: contact.contacto_id,
      norad_id: contact.norad_id,
      satelite: satellite.name,
      estacion: contact.estacion,
      antena: contact.antena,
      ...(contact.banda ? { banda: contact.banda } : {}),
      inicio: contact.inicio,
      fin: contact.fin,
      ...(pass.elevacion_max_deg !== undefined ? { elevacion_max_deg: pass.elevacion_max_deg } : {}),
    },
    clave_idempotencia: contact.contacto_id,
  });
  const data = structured(response);
  const duplicate = data?.['duplicado'] === true;
  const event = data?.['evento'] as { secuencia?: unknown } | undefined;
  if (booking.fresh) {
    ctx.expect(
      `publicar_evento publishes a new event on ${EPISODE_TOPIC} (#${String(event?.secuencia)})`,
      succeeded(response) && event !== undefined && !duplicate,
      succeeded(response) ? 'the hub reported a duplicate' : outcome(response),
    );
  } else {
    // The contact was announced when it was booked: the same key must not publish it again.
    ctx.expect(
      'publicar_evento recognises the contact as already announced and duplicates nothing',
      succeeded(response) && event !== undefined && duplicate,
      succeeded(response) ? 'the hub published it again' : outcome(response),
    );
  }
  return { duplicate };
}

async function hearUpdate(
  ctx: HostContext,
  subscriber: Session,
  updated: Promise<WireMessage | undefined>,
  sentAt: number,
  duplicate: boolean,
): Promise<void> {
  if (duplicate) {
    ctx.printer.heading(
      '9. hub#2 hears nothing new',
      'The hub published nothing (the announcement was a recognised retry), so the subscriber must not be ' +
        'told of a change.',
    );
    const heard = await subscriber.waitForInbound(isUpdateOf(EPISODE_TOPIC_URI), 1_000);
    ctx.expect('hub#2 hears nothing, since nothing new was published', heard === undefined, 'an update came');
    return;
  }
  ctx.printer.heading(
    '9. hub#2 hears of it: notifications/resources/updated',
    'The subscriber did nothing since it subscribed; the notification comes to it unasked, from its own ' +
      'hub-mcp process, which noticed the event another process wrote to the shared log.',
  );
  const message = await updated;
  const ms = Math.round(performance.now() - sentAt);
  if (message) ctx.printer.note(`hub#2 was notified ${ms} ms after publicar_evento was sent.`);
  ctx.expect(
    `hub#2 receives notifications/resources/updated for ${EPISODE_TOPIC_URI} within ${UPDATE_WITHIN_MS / 1000} s`,
    message !== undefined && ms <= UPDATE_WITHIN_MS,
    message ? `it took ${ms} ms` : `none came within ${ms} ms`,
  );
}

async function readTopic(ctx: HostContext, subscriber: Session, contact: Contact): Promise<void> {
  ctx.printer.heading(
    `10. hub#2 reads ${EPISODE_TOPIC_URI}`,
    'The notification only says that the resource changed; the subscriber reads it to see what happened.',
  );
  const response = await subscriber.request('resources/read', { uri: EPISODE_TOPIC_URI });
  const contents = resultOf(response)?.['contents'];
  const text = Array.isArray(contents) ? (contents[0] as { text?: unknown } | undefined)?.text : undefined;
  let events: Array<{
    seq?: unknown;
    type?: unknown;
    published_at?: unknown;
    data?: Record<string, unknown>;
  }> = [];
  try {
    events = (JSON.parse(typeof text === 'string' ? text : '{}') as { events?: typeof events }).events ?? [];
  } catch {
    // Not JSON: the expectation below says so.
  }
  const event = events.find((e) => e.data?.['contacto_id'] === contact.contacto_id);
  if (event) {
    ctx.printer.quote(
      `#${String(event.seq)} ${String(event.type)} (${String(event.published_at)}): ${JSON.stringify(event.data)}`,
    );
  }
  ctx.expect(
    `the topic shows the ${EVENT_TYPE} event of contact ${contact.contacto_id}`,
    event?.type === EVENT_TYPE,
    response.error
      ? describeResponse(response)
      : `${events.length} events, none of contact ${contact.contacto_id}`,
  );
}

async function shutdown(ctx: HostContext, host: Host): Promise<void> {
  ctx.printer.heading(
    '11. Shutdown',
    "The host quits: it closes every server's stdin. Each must notice and exit cleanly (code 0) within 2 s.",
  );
  const exits = await host.closeAll();
  for (const { label, exit, goneBefore } of exits) {
    ctx.printer.note(
      goneBefore
        ? `${label} was already gone: ${goneBefore}.`
        : `${label} exited with ${exit.signal ? `signal ${exit.signal}` : `code ${String(exit.code)}`} after ${Math.round(exit.ms)} ms.`,
    );
  }
  const unclean = exits.filter((e) => e.goneBefore || e.exit.code !== 0 || e.exit.ms > EXIT_WITHIN_MS);
  ctx.expect(
    `all ${exits.length} server processes exit with code 0 within 2 s of stdin closing`,
    unclean.length === 0,
    unclean.map((e) => e.label).join(', '),
  );
}

/** A tools/call through the host, with the result's text shown as the model would read it. */
async function callTool(ctx: HostContext, tool: string, args: Record<string, unknown>): Promise<WireMessage> {
  const response = await ctx.host.call(tool, args);
  for (const text of textBlocks(response)) ctx.printer.quote(text);
  return response;
}

function succeeded(response: WireMessage): boolean {
  const result = resultOf(response);
  return result !== undefined && result['isError'] !== true;
}

function structured(response: WireMessage): Record<string, unknown> | undefined {
  const data = resultOf(response)?.['structuredContent'];
  return data !== null && typeof data === 'object' && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : undefined;
}

function outcome(response: WireMessage): string {
  const texts = textBlocks(response).join(' ');
  return `got ${describeResponse(response)}${texts ? `: ${texts}` : ''}`;
}

/** groundstation's domain error for a window in which every antenna is taken (HTTP 409 underneath). */
/** The pass is taken: every antenna is booked then, or the satellite already has its contact then. */
function isTaken(response: WireMessage): boolean {
  return (
    resultOf(response)?.['isError'] === true &&
    /reservad|ya tiene un contacto/.test(textBlocks(response).join(' '))
  );
}

function isUpdateOf(uri: string): (message: WireMessage) => boolean {
  return (message) =>
    message.method === 'notifications/resources/updated' &&
    (message.params as { uri?: unknown } | undefined)?.uri === uri;
}
