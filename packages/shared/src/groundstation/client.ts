import { RestClient, type RestClientOptions } from '../rest/client.js';
import { SystemError } from '../rest/errors.js';
import type { RestTransport } from '../rest/types.js';
import { groundstationApi } from './api.js';
import type { BookContactRequest } from './schemas.js';

export interface ScheduleQuery {
  /** ISO-8601 UTC; the system's now when omitted. */
  from?: string;
  hours?: number;
}

export interface MaintenanceInput {
  start: string;
  end: string;
  reason: string;
}

export interface GroundstationClientOptions extends Partial<RestClientOptions> {
  /** The server's own operator credential; without it the client never asks for operator actions. */
  operatorToken?: string;
}

/** Typed client of the ground station REST API. */
export class GroundstationClient {
  private readonly rest: RestClient;
  private readonly operatorToken: string | undefined;

  constructor(transport: RestTransport, options: GroundstationClientOptions = {}) {
    const { operatorToken, ...rest } = options;
    this.rest = new RestClient(transport, { systemName: 'sistema de estaciones terrenas', ...rest });
    this.operatorToken = operatorToken;
  }

  health(signal?: AbortSignal) {
    return this.rest.send(groundstationApi.health, {}, signal);
  }

  listStations(signal?: AbortSignal) {
    return this.rest.send(groundstationApi.listStations, {}, signal);
  }

  getStation(station: string, signal?: AbortSignal) {
    return this.rest.send(groundstationApi.getStation, { params: { id: station } }, signal);
  }

  schedule(station: string, query: ScheduleQuery = {}, signal?: AbortSignal) {
    return this.rest.send(
      groundstationApi.schedule,
      { params: { id: station }, query: { ...query } },
      signal,
    );
  }

  bookContact(request: BookContactRequest, signal?: AbortSignal) {
    return this.rest.send(groundstationApi.bookContact, { body: request }, signal);
  }

  getContact(id: string, signal?: AbortSignal) {
    return this.rest.send(groundstationApi.getContact, { params: { id } }, signal);
  }

  cancelContact(id: string, signal?: AbortSignal) {
    return this.rest.send(groundstationApi.cancelContact, { params: { id } }, signal);
  }

  listMaintenance(station: string, signal?: AbortSignal) {
    return this.rest.send(groundstationApi.listMaintenance, { params: { id: station } }, signal);
  }

  /** Operator only: refused here, before any request, when this client holds no operator credential. */
  programMaintenance(station: string, input: MaintenanceInput, signal?: AbortSignal) {
    if (!this.operatorToken) return this.noOperator('programar mantenimiento');
    const body = { ...input, operator_token: this.operatorToken };
    return this.rest.send(groundstationApi.programMaintenance, { params: { id: station }, body }, signal);
  }

  /** Operator only, like programMaintenance. */
  cancelMaintenance(id: string, signal?: AbortSignal) {
    if (!this.operatorToken) return this.noOperator('cancelar mantenimiento');
    const body = { operator_token: this.operatorToken };
    return this.rest.send(groundstationApi.cancelMaintenance, { params: { id }, body }, signal);
  }

  private noOperator(action: string): Promise<never> {
    return Promise.reject(
      new SystemError(
        'Este servidor no tiene credencial de operador del sistema de estaciones terrenas; ' +
          `${action} no es posible desde aquí.`,
        'problem',
        403,
      ),
    );
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
