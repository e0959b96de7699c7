import type { AnyTool } from '@code-cluster/mcp-kit';
import type { LabDeps } from '../deps.js';
import { enviarEntrega } from './enviar-entrega.js';
import { iniciarLaboratorio } from './iniciar-laboratorio.js';
import { listarLaboratorios } from './listar-laboratorios.js';
import { resultadoEntrega } from './resultado-entrega.js';

export const tools: readonly AnyTool<LabDeps>[] = [
  listarLaboratorios,
  iniciarLaboratorio,
  enviarEntrega,
  resultadoEntrega,
];
