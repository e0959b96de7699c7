import { LAB_ID_PATTERN, type LabDetail, type LabSummary, type Statement } from '@code-cluster/shared/lab';
import { refuse } from '../refusal.js';
import type { LabDefinition } from './grading.js';
import { handshakeLab } from './handshake/lab.js';
import { toolSchemaLab } from './tool-schema/lab.js';

/** Every lab the suite offers, in the order students meet them. */
export const LABS: readonly LabDefinition[] = [handshakeLab, toolSchemaLab];

export function findLab(id: string): LabDefinition | undefined {
  return LABS.find((lab) => lab.id === id);
}

/** A lab of the catalog; refused naming the ones there are otherwise. */
export function knownLab(id: string): LabDefinition {
  const found = LAB_ID_PATTERN.test(id) ? findLab(id) : undefined;
  if (found) return found;
  throw refuse.notFound(
    `No existe el laboratorio ${JSON.stringify(id.slice(0, 80))}. Laboratorios disponibles: ` +
      `${LABS.map((l) => l.id).join(', ')}.`,
    { lab: id },
  );
}

/** The catalog as the API shows it: what each lab asks for and by which rules it is graded. */
export const labCatalog = {
  list: (): LabSummary[] => LABS.map(summary),
  detail: (id: string): LabDetail => {
    const lab = knownLab(id);
    return { ...summary(lab), hints: [...lab.hints] };
  },
  statement: (id: string): Statement => {
    const lab = knownLab(id);
    return { lab: lab.id, title: lab.title, markdown: lab.statement };
  },
};

function summary(lab: LabDefinition): LabSummary {
  return {
    id: lab.id,
    title: lab.title,
    summary: lab.summary,
    format: lab.format,
    rules: lab.rules.map((r) => ({ id: r.id, title: r.title, description: r.description })),
  };
}
