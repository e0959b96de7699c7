export { type ConsoleOptions, type Mode, parseArgs, type TargetSpec, USAGE, UsageError } from './args.js';
export {
  type CatalogEntry,
  formatCatalog,
  mergeCatalog,
  type NameClash,
  ToolNameClashError,
  toolsOf,
} from './catalog.js';
export { Checklist } from './checks.js';
export { run } from './cli.js';
export { type DataDir, prepareDataDir } from './data-dir.js';
export { runCatalog, runEpisode } from './federated.js';
export { Host, type HostOptions, type ServerExit } from './host.js';
export { type ConsoleIo, type OutStream, processIo } from './io.js';
export * from './protocol.js';
export { type Check, describe, Printer, type PrinterOptions } from './render.js';
export { REPL_HELP, runRepl } from './repl.js';
export {
  courseSession,
  DEFAULT_SCENARIO,
  EPISODE,
  EPISODE_TOPIC,
  EPISODE_TOPIC_URI,
  episode,
  type HostContext,
  type HostScenario,
  SCENARIOS,
  type Scenario,
  type ScenarioContext,
} from './scenarios/index.js';
export { runScripted } from './scripted.js';
export { ServerGoneError, Session, type SessionOptions } from './session.js';
export { colorEnabled, createStyle, type Style } from './style.js';
export { resolveTarget, type ServerTarget } from './targets.js';
