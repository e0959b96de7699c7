import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import {
  contacto,
  contactoSchema,
  describeContacto,
  describeMantenimiento,
  estacionArg,
  mantenimiento,
  mantenimientoSchema,
} from '../format.js';

export const estadoEstacion = defineTool({
  name: 'estado_estacion',
  title: 'Estado de una estación',
  toolset: 'estaciones',
  description:
    'Estado actual de una estación: operativa o en mantenimiento (con su ventana), estado de cada antena, ' +
    'lecturas de salud (temperaturas, ruido de los LNA, viento, alimentación), alertas y próximo contacto. ' +
    'Úsala antes de agendar un contacto para comprobar que la estación puede atenderlo.',
  input: z.strictObject({ estacion: estacionArg }),
  output: z.object({
    estacion: z.string(),
    nombre: z.string(),
    estado: z.enum(['operativa', 'mantenimiento']),
    instante: z.string().describe('Instante de las lecturas (ISO-8601 UTC)'),
    antenas: z.array(
      z.object({
        id: z.string(),
        banda: z.enum(['UHF', 'S', 'X']),
        estado: z.enum(['operativa', 'mantenimiento']),
        ruido_lna_k: z.number().describe('Temperatura de ruido del amplificador de bajo ruido, K'),
      }),
    ),
    salud: z.object({
      temperatura_exterior_c: z.number(),
      temperatura_sala_c: z.number(),
      viento_m_s: z.number(),
      racha_m_s: z.number(),
      red_electrica: z.boolean(),
      carga_sai_pct: z.number(),
      consumo_kw: z.number(),
    }),
    alertas: z.array(z.string()),
    mantenimiento_actual: mantenimientoSchema.optional(),
    mantenimientos_previstos: z.array(mantenimientoSchema).describe('Ventanas en vigor o futuras'),
    proximo_contacto: contactoSchema.optional().describe('Contacto en curso o el siguiente'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ estacion }, { deps, signal }: GroundstationToolContext) {
    const s = await deps.groundstation.getStation(estacion, signal);
    const h = s.health;
    const data = {
      estacion: s.id,
      nombre: s.name,
      estado: s.status,
      instante: h.at,
      antenas: h.antennas.map((a) => ({
        id: a.id,
        banda: a.band,
        estado: a.status,
        ruido_lna_k: a.lna_noise_k,
      })),
      salud: {
        temperatura_exterior_c: h.outdoor_temp_c,
        temperatura_sala_c: h.shelter_temp_c,
        viento_m_s: h.wind_m_s,
        racha_m_s: h.gust_m_s,
        red_electrica: h.power.mains,
        carga_sai_pct: h.power.ups_charge_pct,
        consumo_kw: h.power.load_kw,
      },
      alertas: h.alerts,
      ...(s.maintenance ? { mantenimiento_actual: mantenimiento(s.maintenance) } : {}),
      mantenimientos_previstos: s.upcoming_maintenance.map(mantenimiento),
      ...(s.next_contact ? { proximo_contacto: contacto(s.next_contact) } : {}),
    };
    const estado = data.mantenimiento_actual
      ? `EN MANTENIMIENTO (${describeMantenimiento(data.mantenimiento_actual)}); no admite contactos hasta ${data.mantenimiento_actual.fin}`
      : 'operativa';
    const text = [
      `${s.id} (${s.name}) a las ${h.at}: ${estado}.`,
      `Antenas: ${data.antenas.map((a) => `${a.id} banda ${a.banda} ${a.estado}, LNA ${a.ruido_lna_k} K`).join('; ')}.`,
      `Salud: exterior ${h.outdoor_temp_c} °C, sala ${h.shelter_temp_c} °C, viento ${h.wind_m_s} m/s ` +
        `(rachas ${h.gust_m_s}), red eléctrica ${h.power.mains ? 'sí' : 'no'}, SAI ${h.power.ups_charge_pct} %, ` +
        `consumo ${h.power.load_kw} kW.`,
      h.alerts.length > 0 ? `Alertas: ${h.alerts.join(' ')}` : 'Sin alertas.',
      data.proximo_contacto
        ? `Próximo contacto: ${describeContacto(data.proximo_contacto)}.`
        : 'Sin contactos agendados.',
    ].join('\n');
    return { text, data };
  },
});
