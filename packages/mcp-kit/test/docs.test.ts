import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstSentence, renderToolsTable } from '../src/docs.js';
import { defineTool } from '../src/tools/define.js';

describe('firstSentence (the README tables and their "what it is for" column)', () => {
  it.each([
    [
      'Envía el trabajo de una sesión (p. ej. la transcripción). Úsala cuando…',
      'Envía el trabajo de una sesión (p. ej. la transcripción).',
    ],
    ['Lists items, e.g. stations. Use it first.', 'Lists items, e.g. stations.'],
    ['Lee sensores, antenas, etc. y alertas. Úsala antes.', 'Lee sensores, antenas, etc. y alertas.'],
    ['Lee sensores, antenas, etc. Úsala antes de un contacto.', 'Lee sensores, antenas, etc.'],
    ['Da la órbita (p. ej. México) y su estado. Úsala.', 'Da la órbita (p. ej. México) y su estado.'],
    ['Tope de 4 h (máx. 240 min) por contacto. Luego…', 'Tope de 4 h (máx. 240 min) por contacto.'],
    ['Datos de catálogo de un satélite. Úsala cuando necesites nombre.', 'Datos de catálogo de un satélite.'],
    ['Una sola frase sin punto final', 'Una sola frase sin punto final'],
    ['Versión 2.1 del formato. 3 reglas la siguen.', 'Versión 2.1 del formato.'],
  ])('%s', (text, sentence) => {
    expect(firstSentence(text)).toBe(sentence);
  });

  it('keeps enviar_entrega whole in its table row instead of cutting at "(p."', () => {
    const tool = defineTool({
      name: 'enviar_entrega',
      title: 't',
      toolset: 'pruebas',
      description:
        'Envía el trabajo de una sesión (p. ej. la transcripción JSON-RPC de mcp-handshake, una línea por ' +
        'mensaje) y lo pone a corregir; devuelve el entrega_id al instante. Úsala cuando esté lista.',
      input: z.strictObject({ sesion_id: z.string() }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: async () => ({ text: '' }),
    });
    expect(renderToolsTable([tool]).split('\n')[2]).toBe(
      '| `enviar_entrega` | Envía el trabajo de una sesión (p. ej. la transcripción JSON-RPC de mcp-handshake, ' +
        'una línea por mensaje) y lo pone a corregir; devuelve el entrega_id al instante. | **sesion_id** | escritura |',
    );
  });
});
