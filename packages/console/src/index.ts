export { type ConsoleOptions, parseArgs, type TargetSpec, USAGE, UsageError } from './args.js';
export { run } from './cli.js';
export { type ConsoleIo, type OutStream, processIo } from './io.js';
export * from './protocol.js';
export { type Check, describe, Printer, type PrinterOptions } from './render.js';
export { REPL_HELP, runRepl } from './repl.js';
export {
  courseSession,
  DEFAULT_SCENARIO,
  SCENARIOS,
  type Scenario,
  type ScenarioContext,
} from './scenarios/index.js';
export { runScripted } from './scripted.js';
export { ServerGoneError, Session, type SessionOptions } from './session.js';
export { colorEnabled, createStyle, type Style } from './style.js';
export { resolveTarget, type ServerTarget } from './targets.js';
