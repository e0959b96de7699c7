import type { AnyTool } from '@code-cluster/mcp-kit';
import type { AcademyDeps } from '../deps.js';
import { buscarCursos } from './buscar-cursos.js';
import { consultaSql } from './consulta-sql.js';
import { progresoEstudiante } from './progreso-estudiante.js';
import { registrarAvance } from './registrar-avance.js';
import { responderQuiz } from './responder-quiz.js';
import { verQuiz } from './ver-quiz.js';

export const tools: readonly AnyTool<AcademyDeps>[] = [
  buscarCursos,
  progresoEstudiante,
  verQuiz,
  registrarAvance,
  responderQuiz,
  consultaSql,
];
