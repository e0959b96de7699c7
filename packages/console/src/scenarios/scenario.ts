import type { DataDir } from '../data-dir.js';
import type { Host } from '../host.js';
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

/** What a scenario over several servers at once gets: a host holding one session per server. */
export interface HostContext {
  printer: Printer;
  host: Host;
  protocolVersion: string;
  /** The servers' CODE_CLUSTER_DATA_DIR for this run. */
  dataDir: DataDir;
  expect(name: string, ok: boolean, detail?: string): Check;
}

/** A scripted run across the cluster: the host connects to several servers and checks what it sees. */
export interface HostScenario {
  name: string;
  title: string;
  run(context: HostContext): Promise<void>;
}
