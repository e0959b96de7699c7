import type { AnyTool } from '@code-cluster/mcp-kit';
import type { RoverdtDeps } from '../deps.js';
import { ejecutarRuta } from './ejecutar-ruta.js';
import { esperar } from './esperar.js';
import { estadoRover } from './estado-rover.js';
import { medir } from './medir.js';
import { planificarRuta } from './planificar-ruta.js';
import { terrenoRover } from './terreno-rover.js';

export const tools: readonly AnyTool<RoverdtDeps>[] = [
  estadoRover,
  planificarRuta,
  ejecutarRuta,
  esperar,
  medir,
  terrenoRover,
];
