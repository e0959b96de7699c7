import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { avisoElementos, lines, round, warningField } from '../format.js';

export const telemetriaSatelite = defineTool({
  name: 'telemetria_satelite',
  title: 'Telemetría del gemelo de un satélite',
  toolset: 'telemetria',
  description:
    'Estado simulado del satélite en su gemelo digital: batería (carga al sol, descarga en eclipse), ' +
    'potencia, temperaturas y modo. Úsala para revisar la salud de un satélite antes de planificar un contacto.',
  input: z.strictObject({
    norad_id: z.int().min(1).max(339_999),
    instante: z.iso
      .datetime({ offset: false })
      .optional()
      .describe('Instante (ISO-8601 UTC); por defecto, ahora'),
  }),
  output: z.object({
    norad_id: z.int(),
    nombre: z.string(),
    instante: z.string(),
    modo: z.enum(['nominal', 'ahorro', 'seguro', 'inactivo']),
    iluminado: z.boolean(),
    bateria: z.object({ carga_pct: z.number(), cargando: z.boolean(), corriente_a: z.number() }),
    potencia: z.object({ generada_w: z.number(), consumida_w: z.number() }),
    temperaturas_c: z.object({ panel: z.number(), bateria: z.number(), electronica: z.number() }),
    aviso_elementos: avisoElementos,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ norad_id, instante }, { deps, signal }: SatdtToolContext) {
    const t = await deps.satdt.telemetry(norad_id, instante, signal);
    const data = {
      norad_id: t.norad_id,
      nombre: t.name,
      instante: t.at,
      modo: t.mode,
      iluminado: t.sunlit,
      bateria: {
        carga_pct: round(t.battery.charge_pct, 1),
        cargando: t.battery.charging,
        corriente_a: round(t.battery.current_a, 2),
      },
      potencia: { generada_w: round(t.power.generated_w, 1), consumida_w: round(t.power.consumed_w, 1) },
      temperaturas_c: {
        panel: round(t.temperatures_c.panel, 1),
        bateria: round(t.temperatures_c.battery, 1),
        electronica: round(t.temperatures_c.electronics, 1),
      },
      ...warningField(t.element_warning),
    };
    const text = lines(
      `${t.name} (${t.at}): modo ${t.mode}, ${t.sunlit ? 'al sol' : 'en eclipse'}; batería ${data.bateria.carga_pct}% ` +
        `(${t.battery.charging ? 'cargando' : 'descargando'}, ${data.bateria.corriente_a} A); ` +
        `temperaturas: panel ${data.temperaturas_c.panel} °C, batería ${data.temperaturas_c.bateria} °C, ` +
        `electrónica ${data.temperaturas_c.electronica} °C.`,
      t.element_warning,
    );
    return { text, data };
  },
});
