import { z } from 'zod';

/** REST resources of the ground station system. Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

export const NoradIdSchema = z.int().min(1).max(339_999);

/** `ct-` and 12 hex digits: what the system hands out when it books a contact. */
export const ContactIdSchema = z.string().regex(/^ct-[0-9a-f]{12}$/);
export const MaintenanceIdSchema = z.string().regex(/^mt-[0-9a-f]{12}$/);

/** Longest contact the system books, and the shortest. */
export const MAX_CONTACT_MS = 4 * 3_600_000;
export const MIN_CONTACT_MS = 60_000;
/** Longest window of a schedule query, hours. */
export const MAX_SCHEDULE_HOURS = 168;

export const BandSchema = z.enum(['UHF', 'S', 'X']);
export type Band = z.infer<typeof BandSchema>;

export const StationStatusSchema = z.enum(['operativa', 'mantenimiento']);

export const AntennaSchema = z.object({
  id: z.string(),
  band: BandSchema,
  diameter_m: z.number().positive(),
  /** Downlink centre frequency, MHz. */
  downlink_mhz: z.number().positive(),
});
export type Antenna = z.infer<typeof AntennaSchema>;

export const MaintenanceWindowSchema = z.object({
  id: z.string(),
  station: z.string(),
  start: isoTime,
  end: isoTime,
  reason: z.string(),
  /** `referencia`: seeded from the reference data when the store was created; `operador`: programmed. */
  source: z.enum(['referencia', 'operador']),
  cancelled_at: isoTime.optional(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

/** The windows of a station not cancelled that are in force or to come, by start. */
export const MaintenanceListSchema = z.object({
  station: z.string(),
  maintenance: z.array(MaintenanceWindowSchema),
});
export type MaintenanceList = z.infer<typeof MaintenanceListSchema>;

export const StationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  city: z.string(),
  latitude_deg: z.number().min(-90).max(90),
  longitude_deg: z.number().min(-180).max(180),
  altitude_m: z.number(),
  elevation_mask_deg: z.number().min(0).max(90),
  status: StationStatusSchema,
  antennas: z.array(AntennaSchema),
  /** The maintenance window in force now, if any. */
  maintenance: MaintenanceWindowSchema.optional(),
});
export type StationSummary = z.infer<typeof StationSummarySchema>;
export const StationListSchema = z.object({ stations: z.array(StationSummarySchema) });

export const AntennaHealthSchema = z.object({
  id: z.string(),
  band: BandSchema,
  status: StationStatusSchema,
  /** Noise temperature of the low-noise amplifier, kelvin. */
  lna_noise_k: z.number(),
});

export const HealthSchema = z.object({
  at: isoTime,
  outdoor_temp_c: z.number(),
  shelter_temp_c: z.number(),
  wind_m_s: z.number().min(0),
  gust_m_s: z.number().min(0),
  power: z.object({
    mains: z.boolean(),
    ups_charge_pct: z.number().min(0).max(100),
    load_kw: z.number().min(0),
  }),
  antennas: z.array(AntennaHealthSchema),
  /** Readings over their limits, in Spanish. */
  alerts: z.array(z.string()),
});
export type Health = z.infer<typeof HealthSchema>;

export const ContactStatusSchema = z.enum(['programado', 'en_curso', 'completado', 'cancelado']);

export const ContactSchema = z.object({
  id: ContactIdSchema,
  station: z.string(),
  antenna: z.string(),
  band: BandSchema,
  norad_id: NoradIdSchema,
  start: isoTime,
  end: isoTime,
  status: ContactStatusSchema,
  created_at: isoTime,
  cancelled_at: isoTime.optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

export const StationStateSchema = StationSummarySchema.extend({
  health: HealthSchema,
  /** Windows in force now or later, oldest first. */
  upcoming_maintenance: z.array(MaintenanceWindowSchema),
  next_contact: ContactSchema.optional(),
});
export type StationState = z.infer<typeof StationStateSchema>;

export const ScheduleSchema = z.object({
  station: z.string(),
  from: isoTime,
  to: isoTime,
  /** Contacts not cancelled that overlap the window, by start. */
  contacts: z.array(ContactSchema),
  maintenance: z.array(MaintenanceWindowSchema),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const BookContactRequestSchema = z.strictObject({
  station: z.string().min(1).max(64),
  norad_id: NoradIdSchema,
  start: isoTime,
  end: isoTime,
  /** A specific antenna of the station; the system picks a free one when omitted. */
  antenna: z.string().min(1).max(64).optional(),
});
export type BookContactRequest = z.infer<typeof BookContactRequestSchema>;

export const ProgramMaintenanceRequestSchema = z.strictObject({
  start: isoTime,
  end: isoTime,
  reason: z.string().trim().min(3).max(500),
  /**
   * The operator credential. It travels in the body because a REST request of this workspace carries no
   * custom headers; the system compares it in constant time and never echoes it.
   */
  operator_token: z.string().min(1).max(512),
});
export type ProgramMaintenanceRequest = z.infer<typeof ProgramMaintenanceRequestSchema>;

export const CancelMaintenanceRequestSchema = z.strictObject({
  operator_token: ProgramMaintenanceRequestSchema.shape.operator_token,
});

export const SystemHealthSchema = z.object({
  status: z.literal('ok'),
  system: z.string(),
  version: z.string(),
});
