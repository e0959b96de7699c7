import type { AnyTool } from '@code-cluster/mcp-kit';
import type { SatdtDeps } from '../deps.js';
import { actualizarElementos } from './actualizar-elementos.js';
import { posicionSatelite } from './posicion-satelite.js';
import { proximosPases } from './proximos-pases.js';
import { sateliteInfo } from './satelite-info.js';
import { telemetriaSatelite } from './telemetria-satelite.js';
import { trayectoriasPases } from './trayectorias-pases.js';
import { trazaOrbital } from './traza-orbital.js';

export const tools: readonly AnyTool<SatdtDeps>[] = [
  sateliteInfo,
  proximosPases,
  posicionSatelite,
  telemetriaSatelite,
  actualizarElementos,
  trayectoriasPases,
  trazaOrbital,
];
