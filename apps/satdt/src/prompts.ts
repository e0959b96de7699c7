import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SatdtDeps } from './deps.js';

export function registerPrompts(server: McpServer, { satdt }: SatdtDeps): void {
  server.registerPrompt(
    'planificar_observacion',
    {
      title: 'Planificar una observación',
      description: 'Guía para planificar la observación de un satélite desde una estación terrena.',
      argsSchema: {
        norad_id: completable(
          z.string().describe('Número NORAD del satélite, p. ej. 25544'),
          async (value) => {
            const { satellites } = await satdt.listSatellites();
            return satellites
              .map((s) => `${s.norad_id}`)
              .filter((id) => id.startsWith(value.trim()))
              .slice(0, 100);
          },
        ),
        estacion: completable(z.string().describe('Estación, p. ej. orbiteye-mx'), async (value) => {
          const { stations } = await satdt.listStations();
          return stations.map((s) => s.id).filter((id) => id.startsWith(value.trim()));
        }),
      },
    },
    ({ norad_id, estacion }) => ({
      description: `Planificar la observación del satélite ${norad_id} desde ${estacion}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Quiero observar el satélite con NORAD ${norad_id} desde la estación ${estacion}.\n\n` +
              '1. Usa satelite_info para confirmar qué satélite es, su régimen orbital y si está operativo. ' +
              'Si está retirado, dímelo antes de seguir.\n' +
              '2. Usa proximos_pases con horas=24 para listar las ventanas de visibilidad. Si es geosíncrono, ' +
              'explica que no tiene pases y si es visible.\n' +
              '3. Elige el mejor pase (mayor elevación máxima, preferentemente de más de 30°) y justifica la elección ' +
              'con AOS, TCA, LOS, elevación y azimuts.\n' +
              '4. Usa telemetria_satelite en el TCA de ese pase para comprobar batería y modo.\n' +
              '5. Resume el plan: hora de apuntado (azimut de AOS), seguimiento y fin; avisa si los elementos ' +
              'orbitales son antiguos.',
          },
        },
      ],
    }),
  );
}
