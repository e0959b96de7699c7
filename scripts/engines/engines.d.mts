type Engine = 'nats' | 'postgres';
export declare const ENGINES: Record<Engine, { url: string; what: string }>;
export declare function enginesRequired(env?: Record<string, string | undefined>): boolean;
export declare function probeEngine(
  name: Engine,
): Promise<{ ok: boolean; url: string; reason: string; what: string }>;
export declare function engineForTests(name: Engine, suite: string): Promise<string | undefined>;
export declare function binaryForTests(path: string, suite: string): string | undefined;
export declare const ENGINE_SUITES: Record<Engine, Array<{ filter: string; dir: string; files: string[] }>>;
