import type { Contact, MaintenanceWindow } from '@code-cluster/shared/groundstation';
import { z } from 'zod';

/** Output shapes and Spanish text shared by groundstation's tools. */

export const estacionArg = z
  .string()
  .min(1)
  .max(40)
  .describe('Identificador de la estación: orbiteye-mx, orbiteye-cl u orbiteye-es');

export const instanteArg = (what: string) =>
  z.iso.datetime({ offset: false }).describe(`${what} (ISO-8601 UTC, p. ej. 2026-11-30T03:14:00Z)`);

export const contactoSchema = z.object({
  contacto_id: z.string(),
  estacion: z.string(),
  antena: z.string(),
  banda: z.enum(['UHF', 'S', 'X']),
  norad_id: z.int(),
  inicio: z.string(),
  fin: z.string(),
  duracion_min: z.number(),
  estado: z.enum(['programado', 'en_curso', 'completado', 'cancelado']),
  cancelado_en: z.string().optional(),
});
export type Contacto = z.infer<typeof contactoSchema>;

export const mantenimientoSchema = z.object({
  mantenimiento_id: z.string(),
  estacion: z.string(),
  inicio: z.string(),
  fin: z.string(),
  motivo: z.string(),
  origen: z
    .enum(['referencia', 'operador'])
    .describe(
      "'referencia': el de los datos de referencia de la estación; 'operador': programado por un operador",
    ),
  cancelado_en: z.string().optional().describe('Cuándo se canceló, si se canceló (ISO-8601 UTC)'),
});
export type Mantenimiento = z.infer<typeof mantenimientoSchema>;

export function contacto(c: Contact): Contacto {
  return {
    contacto_id: c.id,
    estacion: c.station,
    antena: c.antenna,
    banda: c.band,
    norad_id: c.norad_id,
    inicio: c.start,
    fin: c.end,
    duracion_min: Math.round((Date.parse(c.end) - Date.parse(c.start)) / 600) / 100,
    estado: c.status,
    ...(c.cancelled_at ? { cancelado_en: c.cancelled_at } : {}),
  };
}

export function mantenimiento(w: MaintenanceWindow): Mantenimiento {
  return {
    mantenimiento_id: w.id,
    estacion: w.station,
    inicio: w.start,
    fin: w.end,
    motivo: w.reason,
    origen: w.source,
    ...(w.cancelled_at ? { cancelado_en: w.cancelled_at } : {}),
  };
}

/** `2026-06-27T11:30:00Z` → `27/06 11:30Z`. */
export function dayHhmmZ(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${iso.slice(11, 16)}Z`;
}

export function describeContacto(c: Contacto): string {
  return `${dayHhmmZ(c.inicio)}–${dayHhmmZ(c.fin)} antena ${c.antena} (banda ${c.banda}) NORAD ${c.norad_id} [${c.contacto_id}]`;
}

export function describeMantenimiento(m: Mantenimiento): string {
  return `mantenimiento del ${m.inicio} al ${m.fin}: ${m.motivo}`;
}

export const mantenimientoIdArg = z
  .string()
  .regex(/^mt-[0-9a-f]{12}$/)
  .describe(
    "Identificador del mantenimiento: 'mt-' y 12 dígitos hexadecimales, p. ej. mt-00000000c1a0 " +
      '(lo dan listar_mantenimientos y programar_mantenimiento)',
  );
