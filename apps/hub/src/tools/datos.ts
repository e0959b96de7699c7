import { MAX_EVENT_DATA_BYTES } from '@code-cluster/shared/hub';
import { z } from 'zod';

/**
 * Bounds of an event's `datos`, stated in the inputSchema itself so a client (and a model) knows them
 * before it calls: levels of nesting (`datos` itself is the first), keys per object, elements per list,
 * length of a key and of a text. The whole, serialised, is still held to MAX_EVENT_DATA_BYTES by the hub.
 */
export const DATOS_MAX_DEPTH = 4;
export const DATOS_MAX_KEYS = 100;
export const DATOS_MAX_ITEMS = 1000;
export const DATOS_MAX_KEY_LENGTH = 100;

const clave = z.string().max(DATOS_MAX_KEY_LENGTH);

// zod has no bound on a record's size: a check for the value, the keyword for the JSON Schema.
const objeto = (valores: z.ZodType) =>
  z
    .record(clave, valores)
    .refine((value) => Object.keys(value).length <= DATOS_MAX_KEYS, {
      error: `debe tener como máximo ${DATOS_MAX_KEYS} claves`,
    })
    .meta({ maxProperties: DATOS_MAX_KEYS });

// zod reports a union's failure where the outermost union is, not where inside it a bound was broken:
// the message states every bound.
const FUERA_DE_LIMITES =
  `debe ser un valor JSON (texto, número, booleano, null, lista u objeto) dentro de los límites de ` +
  `'datos': ${DATOS_MAX_DEPTH} niveles de listas u objetos, ${DATOS_MAX_KEYS} claves por objeto, ` +
  `${DATOS_MAX_ITEMS} elementos por lista`;

/** A JSON value inside `datos` at `level`: lists and objects only while they stay within the depth. */
function valor(level: number): z.ZodType {
  const primitivos = [z.string().max(MAX_EVENT_DATA_BYTES), z.number(), z.boolean(), z.null()] as const;
  if (level > DATOS_MAX_DEPTH) return z.union(primitivos, { error: FUERA_DE_LIMITES });
  const dentro = valor(level + 1);
  return z.union([...primitivos, z.array(dentro).max(DATOS_MAX_ITEMS), objeto(dentro)], {
    error: FUERA_DE_LIMITES,
  });
}

export const datosEvento = objeto(valor(2)).describe(
  `Contenido del evento: un objeto JSON de hasta ${DATOS_MAX_DEPTH} niveles, ${DATOS_MAX_KEYS} claves por ` +
    `objeto y ${DATOS_MAX_ITEMS} elementos por lista (máx. 64 KiB en JSON)`,
);
