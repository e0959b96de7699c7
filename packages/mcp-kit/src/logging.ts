/** The syslog severities MCP uses for `logging/setLevel` and `notifications/message`, lowest first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, unknown>;
export type LogSink = (level: LogLevel, message: string, fields: LogFields) => void;

export function levelAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/**
 * Logs to stderr only: stdout of a stdio server carries JSON-RPC and nothing else (DESIGN.md §3 rule 4).
 * Extra sinks (the client's `notifications/message`) see every record and apply their own threshold.
 */
export class Logger {
  private readonly sinks = new Set<LogSink>();

  constructor(
    readonly name: string,
    private threshold: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  setLevel(level: LogLevel): void {
    this.threshold = level;
  }

  /** Adds a sink; returns the function that removes it. */
  addSink(sink: LogSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  log(level: LogLevel, message: string, fields: LogFields = {}): void {
    if (levelAtLeast(level, this.threshold)) {
      this.write(
        `${new Date().toISOString()} ${level.toUpperCase()} ${this.name}: ${message}${formatFields(fields)}\n`,
      );
    }
    for (const sink of this.sinks) sink(level, message, fields);
  }

  debug(message: string, fields?: LogFields): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.log('info', message, fields);
  }
  warning(message: string, fields?: LogFields): void {
    this.log('warning', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.log('error', message, fields);
  }
}

function formatFields(fields: LogFields): string {
  let out = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text =
      typeof value === 'string'
        ? value
        : value instanceof Error
          ? (value.stack ?? value.message)
          : JSON.stringify(value);
    out += ` ${key}=${/[\s"]/.test(text) ? JSON.stringify(text) : text}`;
  }
  return out;
}
