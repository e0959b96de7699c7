import type { LabDefinition } from './grading.js';
import { handshakeLab } from './handshake/lab.js';
import { toolSchemaLab } from './tool-schema/lab.js';

/** Every lab the suite offers, in the order students meet them. */
export const LABS: readonly LabDefinition[] = [handshakeLab, toolSchemaLab];

export function findLab(id: string): LabDefinition | undefined {
  return LABS.find((lab) => lab.id === id);
}
