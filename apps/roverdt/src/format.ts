import {
  MAP_CELLS,
  ROUTE_ID_PATTERN,
  ROVER_ID_PATTERN,
  type Route,
  type Rover,
  type Stop,
} from '@code-cluster/shared/roverdt';
import { z } from 'zod';

/** Argument and output shapes, and Spanish text, shared by roverdt's tools. */

export const roverIdArg = z
  .string()
  .min(1)
  .max(40)
  .regex(ROVER_ID_PATTERN)
  .describe('Identificador del rover, p. ej. rover-1');

export const rutaIdArg = z
  .string()
  .regex(ROUTE_ID_PATTERN)
  .describe("Identificador de la ruta que dio planificar_ruta: 'rt-' y 12 dígitos hexadecimales");

const coordinate = (axis: 'x' | 'y', direction: string) =>
  z
    .int()
    .min(0)
    .max(MAP_CELLS - 1)
    .describe(`Celda ${axis} (metros hacia el ${direction} desde la esquina suroeste), 0–${MAP_CELLS - 1}`);

export const celdaSchema = z.strictObject({ x: coordinate('x', 'este'), y: coordinate('y', 'norte') });

const celdaOut = z.object({ x: z.int(), y: z.int() });

export const paradaSchema = z.object({
  motivo: z.enum(['peligro', 'reserva']).describe("'peligro': arena blanda delante; 'reserva': batería"),
  detalle: z.string(),
  instante: z.string(),
  x: z.int(),
  y: z.int(),
});
export type Parada = z.infer<typeof paradaSchema>;

export const roverSchema = z.object({
  rover_id: z.string(),
  nombre: z.string(),
  posicion: z.object({
    x: z.int(),
    y: z.int(),
    rumbo_deg: z.number().describe('Grados desde el norte, en sentido horario'),
    elevacion_m: z.number(),
  }),
  bateria_pct: z.number(),
  bateria_wh: z.number(),
  capacidad_wh: z.number(),
  reserva_pct: z.number().describe('Batería que el rover nunca gasta'),
  modo: z.enum(['reposo', 'en_ruta', 'detenido']),
  instrumentos: z.array(z.string()),
  reloj_simulado: z
    .string()
    .describe('Reloj del gemelo (ISO-8601 UTC); avanza solo al conducir o al esperar'),
  paneles_w: z.number().describe('Lo que dan ahora los paneles solares, W (nada de noche)'),
  odometro_m: z.number(),
  ruta_activa: z.string().nullable().describe('Ruta a medias que ejecutar_ruta puede reanudar'),
  ultima_parada: paradaSchema.nullable(),
  peligros_conocidos: z.int().describe('Celdas de arena blanda ya encontradas; las rutas nuevas las evitan'),
});
export type RoverData = z.infer<typeof roverSchema>;

export const tramoSchema = z.object({
  tramo: z.int(),
  desde: celdaOut,
  hasta: celdaOut,
  distancia_m: z.number(),
  subida_m: z.number(),
  pendiente_max_deg: z.number(),
  energia_wh: z.number(),
});

export const rutaSchema = z.object({
  ruta_id: z.string(),
  rover_id: z.string(),
  estado: z.enum(['planificada', 'en_curso', 'completada', 'detenida', 'abandonada']),
  origen: celdaOut,
  destino: celdaOut,
  distancia_m: z.number(),
  subida_m: z.number(),
  pendiente_max_deg: z.number(),
  energia_wh: z.number(),
  bateria_final_pct: z.number().describe('Batería estimada al llegar, desde la batería al planificar'),
  tramos_hechos: z.int(),
  tramos: z.array(tramoSchema),
});
export type RutaData = z.infer<typeof rutaSchema>;

export function parada(stop: Stop): Parada {
  return { motivo: stop.reason, detalle: stop.detail, instante: stop.at, x: stop.x, y: stop.y };
}

export function rover(r: Rover): RoverData {
  return {
    rover_id: r.id,
    nombre: r.name,
    posicion: { x: r.pose.x, y: r.pose.y, rumbo_deg: r.pose.heading_deg, elevacion_m: r.pose.elevation_m },
    bateria_pct: r.battery_pct,
    bateria_wh: r.battery_wh,
    capacidad_wh: r.battery_capacity_wh,
    reserva_pct: r.reserve_pct,
    modo: r.mode,
    instrumentos: r.instruments,
    reloj_simulado: r.clock,
    paneles_w: r.solar_w,
    odometro_m: r.odometer_m,
    ruta_activa: r.active_route_id,
    ultima_parada: r.last_stop ? parada(r.last_stop) : null,
    peligros_conocidos: r.known_hazards,
  };
}

export function ruta(r: Route): RutaData {
  return {
    ruta_id: r.id,
    rover_id: r.rover_id,
    estado: r.status,
    origen: r.origin,
    destino: r.destination,
    distancia_m: r.distance_m,
    subida_m: r.climb_m,
    pendiente_max_deg: r.max_slope_deg,
    energia_wh: r.energy_wh,
    bateria_final_pct: r.battery_after_pct,
    tramos_hechos: r.legs_done,
    tramos: r.legs.map((l) => ({
      tramo: l.index,
      desde: l.from,
      hasta: l.to,
      distancia_m: l.distance_m,
      subida_m: l.climb_m,
      pendiente_max_deg: l.max_slope_deg,
      energia_wh: l.energy_wh,
    })),
  };
}

export const xy = (c: { x: number; y: number }) => `(${c.x}, ${c.y})`;

export function describeRover(r: RoverData): string {
  const modo =
    r.modo === 'en_ruta'
      ? `en ruta (ruta ${r.ruta_activa} a medias: ejecutar_ruta la reanuda)`
      : r.modo === 'detenido'
        ? 'detenido por seguridad'
        : 'en reposo';
  return (
    `${r.rover_id} (${r.nombre}) en ${xy(r.posicion)}, rumbo ${r.posicion.rumbo_deg}°, elevación ` +
    `${r.posicion.elevacion_m} m; batería ${r.bateria_pct} % (${r.bateria_wh} de ${r.capacidad_wh} Wh, ` +
    `reserva ${r.reserva_pct} %); ${modo}; reloj simulado ${r.reloj_simulado}; paneles ` +
    `${r.paneles_w} W${r.paneles_w === 0 ? ' (de noche)' : ''}; odómetro ${r.odometro_m} m.`
  );
}
