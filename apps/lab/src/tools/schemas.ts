import { LAB_ID_PATTERN, STUDENT_PATTERN } from '@code-cluster/shared/lab';
import { z } from 'zod';

/** Argument pieces shared by lab-mcp's tools. */

export const laboratorio = z
  .string()
  .min(1)
  .max(64)
  .regex(LAB_ID_PATTERN)
  .describe('Id del laboratorio, p. ej. mcp-handshake (lo da listar_laboratorios)');

export const estudiante = z
  .string()
  .min(1)
  .max(64)
  .regex(STUDENT_PATTERN)
  .describe(
    'Id del estudiante en la academia: palabras en minúsculas unidas por guiones (p. ej. ana-garcia); ' +
      'se comprueba contra los estudiantes de la academia',
  );
