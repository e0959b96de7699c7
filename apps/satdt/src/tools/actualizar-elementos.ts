import { defineTool } from '@code-cluster/mcp-kit';
import type { RefreshReport } from '@code-cluster/shared/satdt';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';

const RESULTADOS = ['actualizada', 'sin_cambios', 'no_modificada', 'rechazada', 'inaccesible'] as const;

const fuente = z.object({
  origen: z.enum(['archivo', 'url']),
  ubicacion: z.string().describe('Ruta del archivo o URL'),
  resultado: z
    .enum(RESULTADOS)
    .describe(
      'actualizada: trajo elementos más recientes; sin_cambios: los mismos o más antiguos; no_modificada: ' +
        'el servidor respondió 304; rechazada: datos inválidos (no cambia nada); inaccesible: sin respuesta válida',
    ),
  motivo: z.string().optional().describe('Por qué se rechazó o no se pudo leer'),
  juegos: z.int().describe('Juegos de elementos que ofrecía la fuente'),
  actualizados: z.array(z.int()).describe('NORAD de los satélites con elementos nuevos'),
  nuevos: z.array(z.int()).describe('NORAD que entraron al catálogo'),
  mas_antiguos: z
    .array(z.int())
    .describe('NORAD cuyo juego era más antiguo que el vigente: se conserva el vigente'),
});

export const actualizarElementos = defineTool({
  name: 'actualizar_elementos',
  title: 'Actualizar los elementos orbitales',
  toolset: 'catalogo',
  description:
    'Operador: vuelve a leer ahora las fuentes de elementos orbitales configuradas (archivo y URLs) y dice ' +
    'qué cambió. Úsala cuando los elementos de un satélite son antiguos o tras publicarse juegos nuevos; una ' +
    'fuente con datos inválidos no cambia nada.',
  input: z.strictObject({}),
  output: z.object({
    instante: z.string(),
    satelites: z.int().describe('Satélites del catálogo tras la actualización'),
    fuentes: z.array(fuente),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async handler(_input, { deps, signal }: SatdtToolContext) {
    const report = await deps.satdt.refreshElements(signal);
    const data = {
      instante: report.at,
      satelites: report.satellites,
      fuentes: report.sources.map((s) => ({
        origen: s.origin,
        ubicacion: s.location,
        resultado: s.result,
        ...(s.reason === undefined ? {} : { motivo: s.reason }),
        juegos: s.sets,
        actualizados: s.updated,
        nuevos: s.added,
        mas_antiguos: s.older,
      })),
    };
    return { text: summary(report), data };
  },
});

function summary(report: RefreshReport): string {
  if (report.sources.length === 0) {
    return (
      'No hay fuentes de elementos configuradas (SATDT_ELEMENTS_FILE, SATDT_ELEMENTS_URL): el gemelo usa el ' +
      `catálogo incluido (${report.satellites} satélites).`
    );
  }
  const lines = report.sources.map((s) => {
    const where = `${s.origin === 'archivo' ? 'Archivo' : 'URL'} ${s.location}`;
    switch (s.result) {
      case 'actualizada':
        return (
          `${where}: ${s.updated.length} actualizados${s.updated.length ? ` (${s.updated.join(', ')})` : ''}, ` +
          `${s.added.length} nuevos${s.added.length ? ` (${s.added.join(', ')})` : ''}` +
          (s.older.length ? `, ${s.older.length} más antiguos que los vigentes (se conservan)` : '') +
          '.'
        );
      case 'sin_cambios':
        return `${where}: sin cambios (${s.sets} juegos, ninguno más reciente que los vigentes).`;
      case 'no_modificada':
        return `${where}: sin cambios (el servidor dice que no se ha modificado).`;
      case 'rechazada':
        return `${where}: rechazada, el catálogo no cambia: ${s.reason}.`;
      default:
        return `${where}: no se pudo leer, el catálogo no cambia: ${s.reason}.`;
    }
  });
  return [...lines, `Catálogo: ${report.satellites} satélites.`].join('\n');
}
