import { z } from 'zod';

/** REST resources of the rover digital twin. Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

/** Side of the square terrain map, in cells; one cell is one metre, so cells and metres coincide. */
export const MAP_CELLS = 256;
export const CELL_SIZE_M = 1;
/** Steepest slope the rover drives between two neighbouring cells. */
export const MAX_SLOPE_DEG = 20;
/** Battery the rover never spends: planning and execution both stop above it. */
export const BATTERY_RESERVE_PCT = 15;
/** Longest wait one request may ask for, hours of the rover's clock. */
export const MAX_WAIT_HOURS = 48;
/** Most legs one step request may advance. */
export const MAX_LEGS_PER_STEP = 100;

export const ROVER_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const RoverIdSchema = z.string().min(1).max(40).regex(ROVER_ID_PATTERN);

/** `rt-` and 12 hex digits: what the system hands out when it plans a route. */
export const ROUTE_ID_PATTERN = /^rt-[0-9a-f]{12}$/;
export const RouteIdSchema = z.string().regex(ROUTE_ID_PATTERN);

export const INSTRUMENTS = ['camara', 'espectrometro', 'termometro', 'sismometro'] as const;
export const InstrumentSchema = z.enum(INSTRUMENTS);
export type Instrument = z.infer<typeof InstrumentSchema>;

/** A map cell; x grows east, y grows north. */
export const CellSchema = z.object({
  x: z
    .int()
    .min(0)
    .max(MAP_CELLS - 1),
  y: z
    .int()
    .min(0)
    .max(MAP_CELLS - 1),
});
export type Cell = z.infer<typeof CellSchema>;

export const MapSummarySchema = z.object({
  seed: z.int(),
  width: z.int().positive(),
  height: z.int().positive(),
  cell_size_m: z.number().positive(),
  elevation_min_m: z.number(),
  elevation_max_m: z.number(),
  /** Rock cells: never driven over. */
  obstacle_cells: z.int().min(0),
  craters: z.int().min(0),
  max_slope_deg: z.number().positive(),
  /** Cells steeper than the slope limit towards at least one neighbour. */
  steep_cells: z.int().min(0),
  /** A coarse picture of the map: one character per block of cells, north row first. */
  overview: z.object({
    block_cells: z.int().positive(),
    legend: z.record(z.string(), z.string()),
    rows: z.array(z.string()),
  }),
});
export type MapSummary = z.infer<typeof MapSummarySchema>;

/** The whole heightmap, for pictures of it (MCP Apps views): compact enough for one response. */
export const TerrainGridSchema = z.object({
  width: z.int().positive(),
  height: z.int().positive(),
  cell_size_m: z.number().positive(),
  elevation_min_m: z.number(),
  elevation_max_m: z.number(),
  /** Base64 of one byte per cell, row-major from y = 0: 0 is elevation_min_m, 255 elevation_max_m. */
  elevation_u8: z.string(),
  /** Rock cells, as indices y * width + x. */
  obstacles: z.array(z.int().min(0)),
});
export type TerrainGrid = z.infer<typeof TerrainGridSchema>;

/** Soft-sand cells a rover has found (planning avoids them). */
export const KnownHazardsSchema = z.object({ cells: z.array(CellSchema) });

export const PoseSchema = CellSchema.extend({
  /** Degrees clockwise from north. */
  heading_deg: z.number().min(0).lt(360),
  elevation_m: z.number(),
});
export type Pose = z.infer<typeof PoseSchema>;

/**
 * `reposo`: idle; `en_ruta`: a route is under way (paused between legs when nobody is stepping it);
 * `detenido`: the last route stopped for safety (see `last_stop`).
 */
export const RoverModeSchema = z.enum(['reposo', 'en_ruta', 'detenido']);

export const StopReasonSchema = z.enum(['peligro', 'reserva']);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const StopSchema = z.object({
  reason: StopReasonSchema,
  /** Spanish, says what the rover saw or measured and where it stopped. */
  detail: z.string(),
  at: isoTime,
  x: z.int(),
  y: z.int(),
});
export type Stop = z.infer<typeof StopSchema>;

export const RoverSchema = z.object({
  id: RoverIdSchema,
  name: z.string(),
  pose: PoseSchema,
  battery_pct: z.number().min(0).max(100),
  battery_wh: z.number().min(0),
  battery_capacity_wh: z.number().positive(),
  reserve_pct: z.number().min(0).max(100),
  mode: RoverModeSchema,
  instruments: z.array(InstrumentSchema),
  /** The twin's simulated clock: it advances only while the rover drives or waits. */
  clock: isoTime,
  /** What the solar panels give now, W (nothing at night). */
  solar_w: z.number().min(0),
  odometer_m: z.number().min(0),
  /** The route under way, if any. */
  active_route_id: RouteIdSchema.nullable(),
  last_stop: StopSchema.nullable(),
  /** Soft-sand cells this rover has found; planning avoids them from then on. */
  known_hazards: z.int().min(0),
});
export type Rover = z.infer<typeof RoverSchema>;
export const RoverListSchema = z.object({ rovers: z.array(RoverSchema) });

/**
 * `planificada`: not started; `en_curso`: some legs driven; `completada`; `detenida`: stopped for safety
 * (see `stop`); `abandonada`: the rover set off on another route from where this one paused.
 */
export const RouteStatusSchema = z.enum(['planificada', 'en_curso', 'completada', 'detenida', 'abandonada']);
export type RouteStatus = z.infer<typeof RouteStatusSchema>;

export const LegSchema = z.object({
  index: z.int().min(1),
  from: CellSchema,
  to: CellSchema,
  distance_m: z.number().positive(),
  climb_m: z.number().min(0),
  max_slope_deg: z.number().min(0),
  energy_wh: z.number().min(0),
});
export type Leg = z.infer<typeof LegSchema>;

export const RouteSchema = z.object({
  id: RouteIdSchema,
  rover_id: RoverIdSchema,
  status: RouteStatusSchema,
  origin: CellSchema,
  destination: CellSchema,
  legs: z.array(LegSchema),
  distance_m: z.number().min(0),
  climb_m: z.number().min(0),
  max_slope_deg: z.number().min(0),
  energy_wh: z.number().min(0),
  /** Battery the plan leaves, from the battery when it was planned. */
  battery_after_pct: z.number(),
  legs_done: z.int().min(0),
  /** Known soft sand (found after the plan was made) on the legs still to drive. */
  hazards_ahead: z.array(CellSchema),
  created_at: isoTime,
  /** Why it stopped, when `status` is `detenida`. */
  stop: StopSchema.nullable(),
});
export type Route = z.infer<typeof RouteSchema>;
export const RouteListSchema = z.object({ routes: z.array(RouteSchema) });

export const PlanRouteRequestSchema = z.strictObject({ destination: CellSchema });
export type PlanRouteRequest = z.infer<typeof PlanRouteRequestSchema>;

export const StepRequestSchema = z.strictObject({
  /** Legs to drive in this request; it stops earlier at the end of the route or for safety. */
  legs: z.int().min(1).max(MAX_LEGS_PER_STEP).default(1),
});
export type StepRequest = z.input<typeof StepRequestSchema>;

export const LegResultSchema = z.object({
  index: z.int().min(1),
  /** Where the rover ended the leg: its end, or short of it when it stopped. */
  to: CellSchema,
  distance_m: z.number().min(0),
  energy_wh: z.number().min(0),
  battery_pct: z.number(),
  at: isoTime,
  completed: z.boolean(),
});
export type LegResult = z.infer<typeof LegResultSchema>;

export const StepResultSchema = z.object({
  route: RouteSchema,
  rover: RoverSchema,
  /** Legs driven by this request, in order (a leg cut short by a hazard included). */
  legs: z.array(LegResultSchema),
  stop: StopSchema.nullable(),
});
export type StepResult = z.infer<typeof StepResultSchema>;

export const WaitRequestSchema = z.strictObject({
  hours: z.int().min(1).max(MAX_WAIT_HOURS),
});

export const WaitResultSchema = z.object({
  rover: RoverSchema,
  hours: z.int().min(1),
  from: isoTime,
  to: isoTime,
  /** What the panels stored in the battery, Wh. */
  solar_wh: z.number().min(0),
  /** What the parked rover drew meanwhile (avionics asleep, heaters), Wh. */
  load_wh: z.number().min(0),
  /** Battery change, Wh: solar_wh - load_wh. */
  gained_wh: z.number(),
  battery_before_pct: z.number().min(0).max(100),
});
export type WaitResult = z.infer<typeof WaitResultSchema>;

export const ReadingSchema = z.object({ name: z.string(), value: z.number(), unit: z.string() });
export type Reading = z.infer<typeof ReadingSchema>;

export const MeasurementSchema = z.object({
  rover_id: RoverIdSchema,
  instrument: InstrumentSchema,
  at: isoTime,
  x: z.int(),
  y: z.int(),
  readings: z.array(ReadingSchema),
  /** Spanish, one sentence a person reads. */
  summary: z.string(),
});
export type Measurement = z.infer<typeof MeasurementSchema>;

export const RoverdtHealthSchema = z.object({
  status: z.literal('ok'),
  system: z.string(),
  version: z.string(),
});
