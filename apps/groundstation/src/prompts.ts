import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { GroundstationDeps } from './deps.js';

const MAX_COMPLETIONS = 100;

export function registerPrompts(server: McpServer, { groundstation }: GroundstationDeps): void {
  server.registerPrompt(
    'preparar_contacto',
    {
      title: 'Preparar un contacto',
      description:
        'Guía para reservar un contacto con un satélite en su próximo pase sobre una estación terrena.',
      argsSchema: {
        estacion: completable(z.string().describe('Estación, p. ej. orbiteye-mx'), async (value) => {
          const { stations } = await groundstation.listStations();
          return stations.map((s) => s.id).filter((id) => id.startsWith(value.trim().toLowerCase()));
        }),
        norad_id: completable(
          z.string().describe('Número NORAD del satélite, p. ej. 25544'),
          // The ground station knows no satellite catalog (that is satdt's): it offers the satellites
          // already in its agendas for the coming week.
          async (value) => {
            const { stations } = await groundstation.listStations();
            const schedules = await Promise.all(
              stations.map((s) => groundstation.schedule(s.id, { hours: 168 })),
            );
            const ids = new Set(schedules.flatMap((s) => s.contacts.map((c) => `${c.norad_id}`)));
            return [...ids]
              .filter((id) => id.startsWith(value.trim()))
              .sort()
              .slice(0, MAX_COMPLETIONS);
          },
        ),
      },
    },
    ({ estacion, norad_id }) => ({
      description: `Preparar un contacto con el satélite ${norad_id} desde ${estacion}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Quiero reservar un contacto con el satélite NORAD ${norad_id} desde la estación ${estacion}.\n\n` +
              `1. Usa proximos_pases del servidor satdt-mcp con norad_id=${norad_id}, estacion=${estacion} y ` +
              'horas=24 para obtener los pases (AOS, TCA, LOS). Si ese servidor no está disponible, dímelo y ' +
              'pídeme la ventana del pase.\n' +
              `2. Usa estado_estacion con estacion=${estacion}. Si está en mantenimiento, dime hasta cuándo y ` +
              'propón otra estación operativa (listar_estaciones) en lugar de agendar. Revisa también las ' +
              'alertas (viento, ruido de los LNA).\n' +
              '3. Usa agendar_contacto para el primer pase futuro: inicio = AOS y fin = LOS de ese pase, con ' +
              `norad_id=${norad_id}. Un contacto dura de 1 min a 4 h.\n` +
              '4. Si la reserva falla por solapamiento, lee qué contacto la bloquea y prueba con el siguiente ' +
              'pase o con otra antena; no canceles contactos ajenos sin preguntarme.\n' +
              '5. Resume la reserva: contacto_id, antena y banda, inicio y fin, y la elevación máxima del pase.',
          },
        },
      ],
    }),
  );
}
