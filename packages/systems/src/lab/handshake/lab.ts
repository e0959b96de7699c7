import type { LabDefinition } from '../grading.js';
import { type Analysis, analyse } from './analysis.js';
import { judgeArguments } from './arguments.js';
import { HANDSHAKE_RULES } from './rules.js';
import { readTranscript } from './transcript.js';

const STATEMENT = `# Laboratorio mcp-handshake: una sesión MCP por dentro

Un servidor MCP que funciona «casi siempre» no basta: los clientes confían en que cumpla las reglas del
protocolo al pie de la letra. En este laboratorio capturas una sesión real con un servidor MCP por stdio y
la entregas para que el corrector compruebe, mensaje a mensaje, que el servidor respeta esas reglas.

## Qué entregar

La transcripción de una sesión: **un mensaje JSON-RPC por línea**, en el orden en que viajaron. Puedes marcar
la dirección de cada línea:

- \`→\`, \`->\` o \`>\`: del cliente al servidor
- \`←\`, \`<-\` o \`<\`: del servidor al cliente

Sin marca, el corrector la deduce: peticiones y notificaciones son del cliente (salvo las que solo envía un
servidor, como \`sampling/createMessage\` o \`notifications/message\`) y las respuestas son del servidor.
Las líneas vacías y las que empiezan por \`#\` se ignoran. Tamaño máximo: 64 KiB. La corrección tiene un
tiempo máximo: si un \`pattern\` de los esquemas de tu transcripción tarda demasiado (por ejemplo \`^(a+)+$\`,
que retrocede sin fin con ciertas entradas), la entrega queda **no terminada**, con el motivo.

\`\`\`
→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"yo","version":"1"}}}
← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"satdt-mcp","version":"0.1.0"}}}
→ {"jsonrpc":"2.0","method":"notifications/initialized"}
→ {"jsonrpc":"2.0","id":2,"method":"tools/list"}
← {"jsonrpc":"2.0","id":2,"result":{"tools":[…]}}
\`\`\`

## Qué debe contener

Una buena transcripción pone a prueba al servidor, no solo el camino feliz:

1. una petición antes de \`initialize\` (p. ej. \`tools/list\`) y un \`ping\`;
2. \`initialize\`, \`notifications/initialized\` y \`tools/list\` (sin su respuesta no se pueden juzgar los argumentos);
3. una llamada correcta, una con argumentos fuera del esquema (p. ej. \`horas: 200\` cuando el máximo es 72),
   una a una herramienta que no existe y una que falle en el dominio (un satélite que no existe);
4. una línea que no sea JSON y una notificación desconocida.

## Reglas que se comprueban (DESIGN.md §3)

| regla | qué exige |
|---|---|
| \`orden_del_ciclo\` | antes de completar la inicialización solo se atienden \`initialize\` y \`ping\` (que se responde siempre); lo demás recibe -32000 "Server not initialized"; un segundo \`initialize\` es un error |
| \`version_negociada\` | versión soportada pedida → la misma; otra → la más reciente soportada (2025-11-25) |
| \`emparejamiento_de_ids\` | cada petición con id recibe exactamente una respuesta con ese id; nada responde a ids que no se pidieron; ningún id se repite en la sesión, ni en vuelo ni ya respondido |
| \`notificaciones_sin_respuesta\` | una notificación nunca se responde, aunque sea desconocida o esté mal formada |
| \`capas_de_error\` | herramienta desconocida → -32602; argumentos fuera del esquema → -32602 hasta 2025-06-18 y resultado con \`isError: true\` desde 2025-11-25; error de dominio → siempre resultado con \`isError: true\` |
| \`lineas_invalidas\` | línea que no es JSON → -32700 con id null; JSON que no es petición → -32600; stdout solo lleva JSON-RPC |

Cada regla sale **superada**, **fallida** (con la línea que la incumple y por qué) o **no aplica** (la
transcripción no contiene ese caso). La entrega se aprueba sin ninguna regla fallida.
`;

export const handshakeLab: LabDefinition<Analysis> = {
  id: 'mcp-handshake',
  title: 'Una sesión MCP por dentro',
  summary:
    'Entrega la transcripción JSON-RPC de una sesión con un servidor MCP; el corrector comprueba el orden ' +
    'del ciclo de vida, la versión, el emparejamiento de ids, las notificaciones y las dos capas de errores.',
  format: 'transcripcion-jsonrpc',
  statement: STATEMENT,
  hints: [
    'Captura la sesión con el servidor real (por ejemplo satdt-mcp por stdio) en vez de escribirla a mano: el ' +
      'corrector juzga al servidor, y tus propios errores de copia también cuentan.',
    'Sin la respuesta a tools/list el corrector no puede saber si unos argumentos violan el esquema: inclúyela ' +
      'antes de las llamadas a herramientas.',
    'Fíjate en la versión que negociaste: con 2025-06-18 una violación del esquema es el error -32602; con ' +
      '2025-11-25 es un resultado con isError: true.',
    'Una notificación no lleva id y nunca se responde; si ves una respuesta con id null justo después de una ' +
      'notificación, ahí hay un fallo.',
    'Un error de dominio (satélite inexistente, estación en mantenimiento) es un resultado con isError: true, ' +
      'nunca un error JSON-RPC.',
  ],
  prepare: async (content, tools) => {
    const analysis = analyse(readTranscript(content));
    await judgeArguments(analysis, tools);
    return analysis;
  },
  rules: HANDSHAKE_RULES,
};
