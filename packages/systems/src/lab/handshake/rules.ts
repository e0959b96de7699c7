import type { Finding } from '@code-cluster/shared/lab';
import {
  ErrorCodes,
  inputErrorsAreToolResults,
  isSupportedVersion,
  LATEST_PROTOCOL_VERSION,
  NOT_INITIALIZED_MESSAGE,
  negotiateVersion,
} from '@code-cluster/shared/protocol';
import { excerpt, quote, type RuleDefinition } from '../grading.js';
import { type Analysis, answerOf, type Exchange, refusedByLifecycle, type ServerAnswer } from './analysis.js';
import type { Entry } from './transcript.js';

/** The rules of DESIGN.md §3 a transcript is graded on, in the order they are reported. */

function at(entry: Entry, message: string): Finding {
  return { line: entry.line, message, excerpt: excerpt(entry.text) };
}

function describe(answer: ServerAnswer | undefined): string {
  if (!answer) return 'algo que no es una respuesta';
  if (answer.error) return `el error JSON-RPC ${quote(answer.error.code)}`;
  return answer.result?.isError === true
    ? 'un resultado con isError: true'
    : 'un resultado correcto (sin isError)';
}

const firstAnswer = (exchange: Exchange) => {
  const response = exchange.responses[0];
  return response ? { response, answer: answerOf(response)! } : undefined;
};

const isNotification = (entry: Entry | undefined) =>
  entry !== undefined &&
  (entry.incoming.kind === 'notification' || (entry.incoming.kind === 'invalid' && !entry.incoming.reply));

const notificationName = (entry: Entry) =>
  entry.incoming.kind === 'notification' ? quote(entry.incoming.method) : 'mal formada';

const whenOf = (exchange: Exchange) =>
  exchange.phase === 'awaiting-initialize'
    ? 'antes de initialize'
    : 'entre initialize y notifications/initialized';

export const lifecycleOrder: RuleDefinition<Analysis> = {
  id: 'orden_del_ciclo',
  title: 'Orden del ciclo de vida',
  description:
    'initialize → notifications/initialized → todo lo demás. Antes, el servidor solo atiende initialize y ' +
    `ping: cualquier otra petición recibe el error ${ErrorCodes.ServerNotInitialized} "${NOT_INITIALIZED_MESSAGE}" ` +
    'y no se ejecuta. Un segundo initialize en la misma sesión también es un error.',
  check(a) {
    const findings: Finding[] = [];
    if (!a.exchanges.some((e) => e.method === 'initialize')) {
      findings.push({
        line: null,
        message:
          'La transcripción no contiene ninguna petición initialize: toda sesión MCP empieza con initialize y ' +
          'sigue con notifications/initialized.',
      });
    }
    for (const exchange of a.exchanges) {
      const first = firstAnswer(exchange);
      if (!first) continue;
      const { response, answer } = first;
      const asked = `${quote(exchange.method)} (línea ${exchange.request.line})`;
      if (exchange.method === 'initialize' && exchange.phase !== 'awaiting-initialize') {
        if (!answer.error) {
          findings.push(
            at(
              response,
              `Segundo initialize en la misma sesión ${asked} respondido con un resultado: una sesión se ` +
                `inicializa una sola vez y un segundo initialize recibe un error (${ErrorCodes.InvalidRequest}).`,
            ),
          );
        }
        continue;
      }
      if (exchange.method === 'ping' && exchange.phase !== 'ready') {
        if (answer.error) {
          findings.push(
            at(
              response,
              `${asked} llegó ${whenOf(exchange)} y se respondió con ${describe(answer)}: ping se atiende en ` +
                'cualquier momento, también antes de completar la inicialización, con un resultado vacío {}.',
            ),
          );
        }
        continue;
      }
      if (!refusedByLifecycle(exchange)) continue;
      const when = whenOf(exchange);
      if (!answer.error) {
        findings.push(
          at(
            response,
            `${asked} llegó ${when} y se respondió con un resultado: antes de completar la inicialización ` +
              `solo se atienden initialize y ping; debe responderse el error ${ErrorCodes.ServerNotInitialized} ` +
              `"${NOT_INITIALIZED_MESSAGE}" sin ejecutar nada.`,
          ),
        );
      } else if (answer.error.code !== ErrorCodes.ServerNotInitialized) {
        findings.push(
          at(
            response,
            `${asked} llegó ${when} y se respondió con ${describe(answer)}: el error de este caso es ` +
              `${ErrorCodes.ServerNotInitialized} "${NOT_INITIALIZED_MESSAGE}".`,
          ),
        );
      }
    }
    return findings;
  },
};

export const versionNegotiation: RuleDefinition<Analysis> = {
  id: 'version_negociada',
  title: 'Negociación de versión',
  description:
    'Si el cliente pide una versión soportada (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05), el servidor ' +
    'responde esa misma; si pide otra, responde la más reciente que soporta y el cliente decide.',
  check(a) {
    const first = a.initialize && firstAnswer(a.initialize);
    if (!a.initialize || !first || first.answer.error) return 'no_aplica';
    const requested = a.initialize.params.protocolVersion;
    const answered = first.answer.result?.protocolVersion;
    if (answered === negotiateVersion(requested)) return [];
    return [
      at(
        first.response,
        isSupportedVersion(requested)
          ? `El cliente pidió ${quote(requested)}, una versión soportada, y el servidor respondió ` +
              `${quote(answered)}: ante una versión soportada se responde esa misma.`
          : `El cliente pidió ${quote(requested)}, que no está soportada, y el servidor respondió ` +
              `${quote(answered)}: debe responder la más reciente que soporta (${LATEST_PROTOCOL_VERSION}) y ` +
              'dejar que el cliente decida.',
      ),
    ];
  },
};

export const idPairing: RuleDefinition<Analysis> = {
  id: 'emparejamiento_de_ids',
  title: 'Emparejamiento de ids',
  description:
    'Cada petición del cliente con un id válido recibe exactamente una respuesta con ese mismo id; ninguna ' +
    'respuesta lleva un id que no se pidió, y ningún id se repite en la sesión (ni en vuelo ni ya respondido).',
  check(a) {
    const findings: Finding[] = [];
    a.exchanges.forEach((exchange, index) => {
      if (exchange.duplicateInFlight) {
        const earlier = a.exchanges
          .slice(0, index)
          .filter((e) => e.id === exchange.id)
          .at(-1);
        findings.push(
          at(
            exchange.request,
            `El id ${quote(exchange.id)} ya estaba en vuelo (la petición de la línea ${earlier?.request.line} ` +
              'aún no tenía respuesta): cada petición pendiente necesita un id propio o las respuestas no se ' +
              'pueden emparejar.',
          ),
        );
      }
      if (exchange.reusedAfter) {
        findings.push(
          at(
            exchange.request,
            `El id ${quote(exchange.id)} ya lo usó la petición de la línea ${exchange.reusedAfter.request.line}, ` +
              'ya respondida: en MCP un id no se reutiliza dentro de la misma sesión, aunque la petición ' +
              'anterior haya terminado.',
          ),
        );
      }
      if (exchange.responses.length === 0 && !a.cancelled.has(exchange.id)) {
        findings.push(
          at(
            exchange.request,
            `La petición ${quote(exchange.method)} con id ${quote(exchange.id)} no recibió respuesta: toda ` +
              'petición con un id válido recibe exactamente una.',
          ),
        );
      }
      const second = exchange.responses[1];
      if (second) {
        findings.push(
          at(
            second,
            `Segunda respuesta al id ${quote(exchange.id)}: la petición de la línea ${exchange.request.line} ` +
              `ya se respondió en la línea ${exchange.responses[0]!.line}, y cada petición se responde ` +
              'exactamente una vez.',
          ),
        );
      }
    });
    for (const stray of a.strays) {
      if (isNotification(stray.after)) continue;
      const id = answerOf(stray.response)?.id ?? null;
      findings.push(
        at(
          stray.response,
          `Respuesta con id ${quote(id)}, que no corresponde a ninguna petición del cliente: una respuesta ` +
            'lleva el id de la petición que contesta.',
        ),
      );
    }
    return findings;
  },
};

export const notificationsUnanswered: RuleDefinition<Analysis> = {
  id: 'notificaciones_sin_respuesta',
  title: 'Las notificaciones no se responden',
  description:
    'Una notificación (un mensaje con method y sin id) nunca recibe respuesta, ni siquiera si es desconocida ' +
    'o sus parámetros están mal formados.',
  check(a) {
    if (!a.entries.some((e) => e.from === 'client' && isNotification(e))) return 'no_aplica';
    return a.strays
      .filter((stray) => isNotification(stray.after))
      .map((stray) =>
        at(
          stray.response,
          `Esta respuesta contesta a la notificación ${notificationName(stray.after!)} de la línea ` +
            `${stray.after!.line}: una notificación nunca recibe respuesta, ni de éxito ni de error.`,
        ),
      );
  },
};

export const errorLayers: RuleDefinition<Analysis> = {
  id: 'capas_de_error',
  title: 'Las dos capas de errores',
  description:
    'Herramienta desconocida o parámetros mal formados: error JSON-RPC -32602. Argumentos que violan el ' +
    'inputSchema: -32602 con la versión 2025-06-18 o anteriores, y un resultado con isError: true desde ' +
    '2025-11-25 (SEP-1303). Un error de dominio es siempre un resultado con isError: true, nunca un error ' +
    'JSON-RPC (solo los fallos internos usan -32603). Para juzgar los argumentos, la transcripción debe ' +
    'incluir la respuesta a tools/list.',
  check(a) {
    const calls = a.exchanges.filter(
      (e) => e.method === 'tools/call' && e.phase === 'ready' && e.responses.length > 0,
    );
    if (calls.length === 0) return 'no_aplica';
    const findings: Finding[] = [];
    const version = a.version ?? 'desconocida';
    const asResults = inputErrorsAreToolResults(a.version);
    for (const call of calls) {
      const { response, answer } = firstAnswer(call)!;
      const code = answer.error?.code;
      const name = call.params.name;
      const args = call.params.arguments;
      const where = `(línea ${call.request.line})`;
      if (
        typeof name !== 'string' ||
        (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      ) {
        if (code !== ErrorCodes.InvalidParams) {
          findings.push(
            at(
              response,
              `Los parámetros de tools/call ${where} están mal formados (falta name o arguments no es un ` +
                `objeto): es un error de protocolo, -32602 "Invalid params", no ${describe(answer)}.`,
            ),
          );
        }
        continue;
      }
      if (!a.tools) continue;
      if (!a.tools.has(name)) {
        if (code !== ErrorCodes.InvalidParams) {
          findings.push(
            at(
              response,
              `La herramienta ${quote(name)} ${where} no aparece en tools/list: una herramienta desconocida ` +
                `es un error de protocolo, -32602, no ${describe(answer)}.`,
            ),
          );
        }
        continue;
      }
      const verdict = a.argumentVerdicts.get(call);
      if (!verdict || verdict.kind === 'unknown') continue;
      if (verdict.kind === 'invalid') {
        const wanted = asResults
          ? answer.result?.isError === true
          : answer.error !== undefined && code === ErrorCodes.InvalidParams;
        if (!wanted) {
          findings.push(
            at(
              response,
              `Los argumentos de ${quote(name)} ${where} violan su inputSchema (${verdict.reason}). Con la ` +
                `versión negociada ${version} eso se responde ` +
                (asResults
                  ? 'como resultado con isError: true (SEP-1303), para que el modelo se corrija'
                  : 'con el error JSON-RPC -32602 "Invalid params"') +
                `; se respondió ${describe(answer)}.`,
            ),
          );
        }
      } else if (answer.error && code !== ErrorCodes.InternalError) {
        findings.push(
          at(
            response,
            `Los argumentos de ${quote(name)} ${where} cumplen su inputSchema y se respondió ` +
              `${describe(answer)}: un error de dominio (dato inexistente, sistema caído…) es un resultado ` +
              'con isError: true y un mensaje que el modelo pueda usar; los errores JSON-RPC son del ' +
              'protocolo (y -32603 de fallos internos).',
          ),
        );
      }
    }
    return findings;
  },
};

export const unreadableLines: RuleDefinition<Analysis> = {
  id: 'lineas_invalidas',
  title: 'Líneas ilegibles y salida limpia',
  description:
    'Una línea que no es JSON recibe -32700 con id null; un JSON que no es una petición válida, -32600 (con ' +
    'su id si lo tiene). El servidor sigue funcionando después, y solo escribe mensajes JSON-RPC, uno por ' +
    'línea (un JSON repartido en varias líneas rompe el protocolo).',
  check(a) {
    const spread = a.entries.filter((e) => e.lastLine !== undefined);
    if (a.expectations.length === 0 && a.serverNoise.length === 0 && spread.length === 0) return 'no_aplica';
    const findings: Finding[] = [];
    const firstSpread = spread[0];
    if (firstSpread) {
      const others = spread.length - 1;
      findings.push(
        at(
          firstSpread,
          `El mensaje de las líneas ${firstSpread.line}–${firstSpread.lastLine} ocupa varias líneas` +
            (others > 0 ? ` (y ${others} ${others === 1 ? 'mensaje más' : 'mensajes más'} también)` : '') +
            ': en MCP por stdio cada mensaje JSON-RPC va en una sola línea, sin saltos de línea dentro, ' +
            'porque el salto de línea es lo que separa un mensaje del siguiente. Se corrigió como si cada ' +
            'uno estuviera en su línea; entrega la transcripción tal como viajó, un mensaje por línea (p. ej. ' +
            'compactando cada uno con jq -c).',
        ),
      );
    }
    for (const expected of a.expectations) {
      const what =
        expected.code === ErrorCodes.ParseError ? 'no es JSON' : 'no es una petición JSON-RPC válida';
      const wantedId = expected.id === null ? 'null' : quote(expected.id);
      const response = expected.answers[0];
      if (!response) {
        findings.push(
          at(
            expected.entry,
            `La línea ${what} y no recibió respuesta: debe responderse el error ${expected.code} con id ` +
              `${wantedId}, y el servidor sigue funcionando.`,
          ),
        );
        continue;
      }
      const answer = answerOf(response);
      if (answer?.error?.code !== expected.code || answer.id !== expected.id) {
        findings.push(
          at(
            response,
            `Respuesta a la línea ${expected.entry.line}, que ${what}: debe ser el error ${expected.code} con ` +
              `id ${wantedId}; se respondió ${describe(answer)} con id ${quote(answer?.id ?? null)}.`,
          ),
        );
      }
    }
    for (const noise of a.serverNoise) {
      findings.push(
        at(
          noise,
          'El servidor escribió una línea que no es un mensaje JSON-RPC: stdout solo lleva protocolo, un ' +
            'mensaje por línea; los registros van a stderr.',
        ),
      );
    }
    return findings;
  },
};

export const HANDSHAKE_RULES = [
  lifecycleOrder,
  versionNegotiation,
  idPairing,
  notificationsUnanswered,
  errorLayers,
  unreadableLines,
] as const;
