import type { ServerDefinition } from '@code-cluster/mcp-kit';
import pkg from '../package.json' with { type: 'json' };
import type { RoverdtDeps } from './deps.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { tools } from './tools/index.js';

/** The server's name and version, stated once: its definition and its bin (`--version`) read them. */
export const identity = { name: 'roverdt-mcp', version: pkg.version } as const;

export const roverdtServer: ServerDefinition<RoverdtDeps> = {
  ...identity,
  title: 'Gemelo digital del rover (CO.DE)',
  instructions:
    'Servidor del gemelo digital del rover de CO.DE Academy (rover de referencia: rover-1) sobre un mapa de ' +
    'terreno de 256 × 256 celdas de 1 m, con rocas, cráteres y arena blanda oculta. Flujo: estado_rover ' +
    'para saber dónde está y cuánta batería tiene; planificar_ruta hacia una celda {x, y} (no mueve nada y ' +
    'explica por qué no se puede llegar si es el caso); ejecutar_ruta con el ruta_id para conducir tramo a ' +
    'tramo (gasta batería, se puede cancelar y reanudar, se detiene sola ante arena blanda o la reserva del ' +
    '15 %); esperar para que los paneles solares recarguen la batería de día; medir con camara, espectrometro, termometro o sismometro. El recurso rover://mapa resume el ' +
    'terreno. Las horas son del reloj simulado del gemelo (ISO-8601 UTC).',
  tools,
  resources: registerResources,
  prompts: registerPrompts,
};
