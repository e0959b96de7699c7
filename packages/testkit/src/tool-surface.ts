import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';

/** The four behaviour hints a tool declares (MCP ToolAnnotations), all stated: none is left to a default. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool that only reads the system's own data. */
export const READ_ONLY: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A tool that writes; not destructive, not idempotent and closed-world unless said. */
export function writes(
  hints: { destructive?: boolean; idempotent?: boolean; openWorld?: boolean } = {},
): ToolHints {
  return {
    readOnlyHint: false,
    destructiveHint: hints.destructive ?? false,
    idempotentHint: hints.idempotent ?? false,
    openWorldHint: hints.openWorld ?? false,
  };
}

/** Each tool's argument names (in schema order) and the required ones: what CONTRACT.md fixes. */
export function argumentsOf(tools: readonly Tool[]): Record<string, { all: string[]; required: string[] }> {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      { all: Object.keys(t.inputSchema.properties ?? {}), required: t.inputSchema.required ?? [] },
    ]),
  );
}

export interface ToolSurfaceOptions {
  /** tools/list of the session under test (called inside each test, after the suite's beforeAll). */
  listTools(): Promise<Tool[]>;
  /** Every tool the session offers, in tools/list order, with the hints it must declare. */
  tools: Record<string, ToolHints>;
  /** What every description must contain (the servers' "when to use it" sentence), if they all share it. */
  descriptions?: RegExp;
  /** The committed tools/list, relative to the test file. */
  snapshot: string;
  /** The session whose tools/list the snapshot holds, when it is not `listTools` (e.g. a wider scope). */
  snapshotTools?(): Promise<Tool[]>;
}

/**
 * The generic half of an app's contract test: exactly these tools, each annotated as stated, each with a
 * title and an object outputSchema, and the whole surface equal to the committed snapshot. The app's own
 * contract test keeps what is particular to it (argument names and bounds, resources, prompts).
 */
export function describeToolSurface(options: ToolSurfaceOptions): void {
  it('offers exactly its tools, in order', async () => {
    const tools = await options.listTools();
    expect(tools.map((t) => t.name)).toEqual(Object.keys(options.tools));
  });

  it('declares every hint of every tool as stated', async () => {
    const tools = await options.listTools();
    const declared = Object.fromEntries(
      tools.map((t) => [
        t.name,
        {
          readOnlyHint: t.annotations?.readOnlyHint,
          destructiveHint: t.annotations?.destructiveHint,
          idempotentHint: t.annotations?.idempotentHint,
          openWorldHint: t.annotations?.openWorldHint,
        },
      ]),
    );
    expect(declared).toEqual(options.tools);
  });

  it('gives every tool a title, a description and an object outputSchema', async () => {
    for (const tool of await options.listTools()) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toMatch(options.descriptions ?? /\S/);
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    }
  });

  it('keeps the tool surface identical to the committed snapshot', async () => {
    const tools = await (options.snapshotTools ?? options.listTools)();
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot(options.snapshot);
  });
}
