import type { AnyTool } from '@code-cluster/mcp-kit';
import type { HubDeps } from '../deps.js';
import { leerEventos } from './leer-eventos.js';
import { listarTopicos } from './listar-topicos.js';
import { publicarEvento } from './publicar-evento.js';
import { resumirTopico } from './resumir-topico.js';

export const tools: readonly AnyTool<HubDeps>[] = [publicarEvento, leerEventos, listarTopicos, resumirTopico];
