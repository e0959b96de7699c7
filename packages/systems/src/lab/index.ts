export { findLab, LABS } from './catalog.js';
export {
  excerpt,
  type GradedRule,
  GradingOverrun,
  type GradingTools,
  gradeAll,
  gradeRules,
  type LabDefinition,
  quote,
  type RuleDefinition,
  type RuleVerdict,
} from './grading.js';
export { type Analysis, analyse } from './handshake/analysis.js';
export { handshakeLab } from './handshake/lab.js';
export { HANDSHAKE_RULES } from './handshake/rules.js';
export { type Entry, readTranscript } from './handshake/transcript.js';
export { type GradingBudget, GradingSandbox, type Overrun } from './sandbox.js';
export { MIGRATIONS, SqliteLabStore } from './sqlite-store.js';
export type { LabStore, RuleResultRow, SessionRow, SubmissionRow } from './store.js';
export {
  createLabSystem,
  type LabDatabaseOptions,
  type LabSystem,
  type LabSystemOptions,
  migrateLab,
  openLabSystem,
} from './system.js';
export { toolSchemaLab } from './tool-schema/lab.js';
