export declare const ENGINES: Record<'nats', { url: string; what: string }>;
export declare function enginesRequired(env?: Record<string, string | undefined>): boolean;
export declare function probeEngine(
  name: 'nats',
): Promise<{ ok: boolean; url: string; reason: string; what: string }>;
export declare function engineForTests(name: 'nats', suite: string): Promise<string | undefined>;
export declare function binaryForTests(path: string, suite: string): string | undefined;
export declare const ENGINE_SUITES: Record<'nats', Array<{ filter: string; dir: string; files: string[] }>>;
