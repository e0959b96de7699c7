import type { z } from 'zod';
import type { ClientFeatures } from '../client-features.js';
import type { Logger } from '../logging.js';
import type { ToolSwitch } from '../toolsets.js';

/** The four MCP tool annotations; every tool states all of them (DESIGN.md §3 rule 7). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type InputShape = z.ZodObject;
export type OutputShape = z.ZodObject | undefined;

/** What a handler returns: always a readable text block, plus structured data when the tool declares an output. */
export type ToolOutput<O extends OutputShape> = O extends z.ZodObject
  ? { text: string; data: z.input<O> }
  : { text: string };

export interface ToolContext<D> extends ClientFeatures {
  /** The app's dependencies (its system client, its config). */
  deps: D;
  /** Aborted on `notifications/cancelled` and on the tool's timeout: pass it down to every upstream call. */
  signal: AbortSignal;
  /** When the tool's timeout fires (epoch ms): a wait of the tool's own must end before it to say why. */
  deadline: number;
  /** Reports progress when the client sent a progressToken; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  logger: Logger;
  /** This session's tool groups (what listar_grupos and activar_grupo act on). */
  tools: ToolSwitch;
}

/** An MCP Apps view: one self-contained HTML file served as a `ui://` resource (the `io.modelcontextprotocol/ui` extension). */
export interface ToolView {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  html: string;
}

/**
 * What a tool offers hosts that render MCP Apps; clients that do not offer the extension never see it.
 * `visibility: ['app']` makes a view-only tool: listed for the view only, hidden from the model.
 */
export interface ToolUi {
  view?: ToolView;
  visibility?: Array<'model' | 'app'>;
}

/** A tool as data (name, texts, schemas, annotations) plus its handler. */
export interface ToolDefinition<
  I extends InputShape = InputShape,
  O extends OutputShape = OutputShape,
  D = never,
> {
  name: string;
  title: string;
  /** Spanish; says when to use the tool. */
  description: string;
  /** The group `--toolsets` and `--dynamic-toolsets` select it by: a Spanish word, shared by related tools. */
  toolset: string;
  input: I;
  output?: O;
  annotations: ToolAnnotations;
  /** MCP Apps: the view that shows this tool's result, or a view-only tool's visibility. */
  ui?: ToolUi;
  /** Overrides the server-wide tool timeout. */
  timeoutMs?: number;
  handler(args: z.output<I>, context: ToolContext<D>): Promise<ToolOutput<O>>;
}

/** Identity function that lets TypeScript infer the argument and output types of a tool. */
export function defineTool<I extends InputShape, O extends OutputShape = undefined, D = never>(
  definition: ToolDefinition<I, O, D>,
): ToolDefinition<I, O, D> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of tools erases each one's own types.
export type AnyTool<D> = ToolDefinition<any, any, D>;
