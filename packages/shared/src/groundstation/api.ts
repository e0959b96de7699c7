import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  BookContactRequestSchema,
  CancelMaintenanceRequestSchema,
  ContactSchema,
  MAX_SCHEDULE_HOURS,
  MaintenanceListSchema,
  MaintenanceWindowSchema,
  ProgramMaintenanceRequestSchema,
  ScheduleSchema,
  StationListSchema,
  StationStateSchema,
  SystemHealthSchema,
} from './schemas.js';

// Ids in paths are looked up, not pattern-checked: a malformed one is one that does not exist (404,
// naming where the model finds the right ones), the same as a well-formed unknown one.
const id = z.object({ id: z.string() });

/** The ground station system's REST API: what GroundstationClient sends and the system routes. */
export const groundstationApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: SystemHealthSchema }),
  listStations: endpoint({ method: 'GET', path: '/v1/stations', response: StationListSchema }),
  getStation: endpoint({ method: 'GET', path: '/v1/stations/:id', params: id, response: StationStateSchema }),
  schedule: endpoint({
    method: 'GET',
    path: '/v1/stations/:id/schedule',
    params: id,
    query: z.object({
      /** ISO-8601 UTC; the system's now when omitted. */
      from: z.iso.datetime({ offset: false }).optional(),
      hours: z.coerce.number().int().min(1).max(MAX_SCHEDULE_HOURS).default(24),
    }),
    response: ScheduleSchema,
  }),
  listMaintenance: endpoint({
    method: 'GET',
    path: '/v1/stations/:id/maintenance',
    params: id,
    response: MaintenanceListSchema,
  }),
  programMaintenance: endpoint({
    method: 'POST',
    path: '/v1/stations/:id/maintenance',
    params: id,
    body: ProgramMaintenanceRequestSchema,
    response: MaintenanceWindowSchema,
  }),
  cancelMaintenance: endpoint({
    method: 'POST',
    path: '/v1/maintenance/:id/cancel',
    params: id,
    body: CancelMaintenanceRequestSchema,
    response: MaintenanceWindowSchema,
  }),
  bookContact: endpoint({
    method: 'POST',
    path: '/v1/contacts',
    body: BookContactRequestSchema,
    response: ContactSchema,
  }),
  getContact: endpoint({ method: 'GET', path: '/v1/contacts/:id', params: id, response: ContactSchema }),
  cancelContact: endpoint({
    method: 'DELETE',
    path: '/v1/contacts/:id',
    params: id,
    response: ContactSchema,
  }),
};
export type GroundstationApi = typeof groundstationApi;
