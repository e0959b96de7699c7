import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RoverdtDeps } from './deps.js';

export function registerPrompts(server: McpServer, { roverdt }: RoverdtDeps): void {
  server.registerPrompt(
    'explorar_zona',
    {
      title: 'Explorar una zona con el rover',
      description:
        'Guía para estudiar los alrededores de un rover y acercarlo a un punto de interés con seguridad.',
      argsSchema: {
        rover_id: completable(z.string().describe('Rover, p. ej. rover-1'), async (value) => {
          const { rovers } = await roverdt.listRovers();
          return rovers.map((r) => r.id).filter((id) => id.startsWith(value.trim().toLowerCase()));
        }),
      },
    },
    ({ rover_id }) => ({
      description: `Explorar la zona del rover ${rover_id}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Explora la zona alrededor del rover ${rover_id} con el gemelo digital.\n\n` +
              `1. Usa estado_rover con rover_id=${rover_id}: anota posición, batería y reserva, modo y última ` +
              'parada. Si tiene una ruta a medias (ruta_activa), pregúntame si la reanudo antes de nada.\n' +
              '2. Lee el recurso rover://mapa y busca en la vista general, cerca del rover, algo interesante ' +
              "(un cráter 'O', un borde escarpado '^'); evita las zonas rocosas '#'.\n" +
              '3. Usa medir con instrumento=camara y con instrumento=espectrometro donde está el rover.\n' +
              '4. Elige un destino a no más de unos 40 m y usa planificar_ruta. Si falla, lee el motivo ' +
              '(roca, pendiente, energía) y elige otro destino en consecuencia; no insistas con el mismo. Si ' +
              'falta energía, el motivo dice cuántas horas esperar: usa esperar y vuelve a planificar.\n' +
              '5. Usa ejecutar_ruta con el ruta_id. Si se detiene por arena blanda o por la reserva de batería, ' +
              'no la repitas: informa y planifica otra ruta desde donde quedó (tras esperar, si fue la reserva).\n' +
              '6. Al llegar, mide con camara, espectrometro y termometro.\n' +
              '7. Resume: recorrido (distancia, energía, batería final), qué encontraste en cada punto y qué ' +
              'zona recomiendas estudiar después. Nunca gastes batería por debajo de la reserva.',
          },
        },
      ],
    }),
  );
}
