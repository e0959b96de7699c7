import type { Check, Printer } from '../render.js';
import type { Session } from '../session.js';

/** What a scripted scenario gets to work with. */
export interface ScenarioContext {
  printer: Printer;
  /** Protocol version to ask for in initialize. */
  protocolVersion: string;
  /** Run the error demos too. */
  errors: boolean;
  /** Spawns another process of the target server; the suffix tells its transcript lines apart. */
  openSession(labelSuffix?: string): Session;
  /** Records an expectation and prints whether it held. */
  expect(name: string, ok: boolean, detail?: string): Check;
}

/** A scripted conversation with a server that checks what it sees against the protocol rules. */
export interface Scenario {
  name: string;
  title: string;
  run(context: ScenarioContext): Promise<void>;
}
