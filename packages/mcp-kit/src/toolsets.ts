import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { booleanSetting, type OptionSpecs } from './config.js';
import { DomainError } from './protocol/errors.js';
import { isViewOnly, withUiMeta } from './tools/apps.js';
import { type AnyTool, defineTool } from './tools/define.js';
import { describeTool } from './tools/register.js';

/** `--toolsets` and `--dynamic-toolsets`, taken by every server of the cluster. */
export const toolsetOptions = {
  toolsets: {
    flag: 'toolsets',
    env: 'MCP_TOOLSETS',
    schema: z
      .string()
      .default('all')
      .transform((value) =>
        value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
      ),
    description: 'comma-separated tool groups to offer (see the README), or all (default)',
  },
  dynamicToolsets: {
    flag: 'dynamic-toolsets',
    env: 'MCP_DYNAMIC_TOOLSETS',
    boolean: true,
    schema: booleanSetting.default(false),
    description:
      'start with only listar_grupos and activar_grupo; each session activates the groups it needs',
  },
} satisfies OptionSpecs;

/** The groups of a server's tools, in the order their first tool appears. */
export function toolsetsOf(tools: readonly AnyTool<never>[]): string[] {
  return [...new Set(tools.map((tool) => tool.toolset))];
}

/**
 * The groups `--toolsets` names, checked against the server's own: `all` (or nothing) is every group.
 * An unknown name is a setting error that names the valid ones.
 */
export function selectToolsets(
  tools: readonly AnyTool<never>[],
  requested: readonly string[],
): { ok: true; toolsets: string[] } | { ok: false; message: string } {
  const known = toolsetsOf(tools);
  if (requested.length === 0 || requested.includes('all')) return { ok: true, toolsets: known };
  const unknown = requested.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    return {
      ok: false,
      message:
        `invalid value for --toolsets (MCP_TOOLSETS): unknown toolset ${unknown.map((n) => `'${n}'`).join(', ')}; ` +
        `valid toolsets are ${known.join(', ')} (or all)`,
    };
  }
  return { ok: true, toolsets: known.filter((name) => requested.includes(name)) };
}

/** One session's view of a group, as listar_grupos reports it. */
export interface ToolsetState {
  grupo: string;
  activo: boolean;
  herramientas: string[];
}

/** What a tool may do to its own session's tool list. */
export interface ToolSwitch {
  /** Names of the tools this session sees now. */
  names(): string[];
  groups(): ToolsetState[];
  /** Turns a group's tools on for this session; false when it already was. Throws a DomainError on an unknown group. */
  enableGroup(name: string): boolean;
  setEnabled(names: readonly string[], enabled: boolean): boolean;
  /** Turns `on` on and `off` off as one change: one `tools/list_changed`. */
  swap(on: readonly string[], off: readonly string[]): boolean;
}

/**
 * The tools one session sees. A server process builds one per session (stdio has one, HTTP one per
 * `Mcp-Session-Id`), so enabling a group for one client never shows it to another. A tool that is off is
 * absent from `tools/list` and unknown to `tools/call` (-32602), exactly like one the server never had.
 */
export class SessionTools<D> implements ToolSwitch {
  private readonly enabled: Set<AnyTool<D>>;
  /** The listing for a client without MCP Apps and for one with it (view-only tools, `_meta.ui`). */
  private listings: { plain?: ListToolsResult; withUi?: ListToolsResult } = {};

  /**
   * @param offered every tool this session may ever see, discovery tools first
   * @param enabledAtStart the ones it sees before any change
   * @param onChange runs after every change of the list (the server sends `notifications/tools/list_changed`)
   */
  constructor(
    readonly offered: readonly AnyTool<D>[],
    enabledAtStart: (tool: AnyTool<D>) => boolean,
    private readonly onChange: () => void,
  ) {
    this.enabled = new Set(offered.filter(enabledAtStart));
  }

  /** `withUi`: the client offers MCP Apps, so view-only tools are its too. */
  get(name: string, withUi = false): AnyTool<D> | undefined {
    return this.visible(withUi).find((tool) => tool.name === name);
  }

  names(withUi = false): string[] {
    return this.visible(withUi).map((tool) => tool.name);
  }

  list(withUi = false): ListToolsResult {
    const key = withUi ? 'withUi' : 'plain';
    this.listings[key] ??= {
      tools: this.visible(withUi).map((tool) => {
        const entry = describeTool(tool as AnyTool<unknown>);
        return withUi ? withUiMeta(tool as AnyTool<unknown>, entry) : entry;
      }),
    };
    return this.listings[key];
  }

  groups(): ToolsetState[] {
    return toolsetsOf(this.grouped() as AnyTool<never>[]).map((grupo) => {
      const members = this.grouped().filter((tool) => tool.toolset === grupo);
      return {
        grupo,
        activo: members.every((tool) => this.enabled.has(tool)),
        // View-only tools follow their group but are the view's, not the model's: not named to it.
        herramientas: members
          .filter((tool) => !isViewOnly(tool as AnyTool<unknown>))
          .map((tool) => tool.name),
      };
    });
  }

  enableGroup(name: string): boolean {
    const members = this.grouped().filter((tool) => tool.toolset === name);
    if (members.length === 0) {
      throw new DomainError(
        `No existe el grupo '${name}'. Grupos disponibles: ${this.groups()
          .map((g) => g.grupo)
          .join(', ')} (los lista listar_grupos).`,
      );
    }
    return this.set(members.map((tool) => [tool, true] as const));
  }

  setEnabled(names: readonly string[], enabled: boolean): boolean {
    return enabled ? this.swap(names, []) : this.swap([], names);
  }

  swap(on: readonly string[], off: readonly string[]): boolean {
    const named = (names: readonly string[]) => this.offered.filter((tool) => names.includes(tool.name));
    return this.set([
      ...named(on).map((t) => [t, true] as const),
      ...named(off).map((t) => [t, false] as const),
    ]);
  }

  private set(changes: ReadonlyArray<readonly [AnyTool<D>, boolean]>): boolean {
    let changed = false;
    for (const [tool, enabled] of changes) {
      if (this.enabled.has(tool) === enabled) continue;
      if (enabled) this.enabled.add(tool);
      else this.enabled.delete(tool);
      changed = true;
    }
    if (changed) {
      this.listings = {};
      this.onChange();
    }
    return changed;
  }

  private visible(withUi = false): AnyTool<D>[] {
    return this.offered.filter(
      (tool) => this.enabled.has(tool) && (withUi || !isViewOnly(tool as AnyTool<unknown>)),
    );
  }

  /** The app's tools, without the kit's discovery tools. */
  private grouped(): AnyTool<D>[] {
    return this.offered.filter((tool) => !DISCOVERY_TOOLS.includes(tool as AnyTool<unknown>));
  }
}

/** The toolset of the discovery tools themselves; never a group of an app. */
const DISCOVERY_TOOLSET = 'descubrimiento';

const listarGrupos = defineTool({
  name: 'listar_grupos',
  title: 'Listar los grupos de herramientas',
  toolset: DISCOVERY_TOOLSET,
  description:
    'Lista los grupos de herramientas de este servidor, cuáles están activos en esta sesión y qué ' +
    'herramientas trae cada uno. Úsala al empezar para saber qué grupo activar con activar_grupo antes de ' +
    'buscar una herramienta que no aparece.',
  input: z.strictObject({}),
  output: z.object({
    grupos: z.array(z.object({ grupo: z.string(), activo: z.boolean(), herramientas: z.array(z.string()) })),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { tools }) {
    const grupos = tools.groups();
    const text = [
      `${grupos.length} grupos de herramientas:`,
      ...grupos.map(
        (g) => `- ${g.grupo} (${g.activo ? 'activo' : 'inactivo'}): ${g.herramientas.join(', ')}`,
      ),
      'Activa uno con activar_grupo {grupo}.',
    ].join('\n');
    return { text, data: { grupos } };
  },
});

const activarGrupo = defineTool({
  name: 'activar_grupo',
  title: 'Activar un grupo de herramientas',
  toolset: DISCOVERY_TOOLSET,
  description:
    'Activa en esta sesión las herramientas de un grupo (los da listar_grupos); el cliente recibe la lista ' +
    'nueva de herramientas. Úsala cuando la tarea necesite una herramienta de un grupo inactivo. Activar un ' +
    'grupo ya activo no cambia nada.',
  input: z.strictObject({
    grupo: z.string().min(1).max(64).describe('Nombre del grupo, tal como lo da listar_grupos'),
  }),
  output: z.object({ grupo: z.string(), activado: z.boolean(), herramientas: z.array(z.string()) }),
  // It changes what this session is offered, never any data: a read under --read-only too.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ grupo }, { tools }) {
    const activado = tools.enableGroup(grupo);
    const herramientas = tools.groups().find((g) => g.grupo === grupo)?.herramientas ?? [];
    const text = activado
      ? `Grupo '${grupo}' activado: ya puedes usar ${herramientas.join(', ')}.`
      : `El grupo '${grupo}' ya estaba activo: ${herramientas.join(', ')}.`;
    return { text, data: { grupo, activado, herramientas } };
  },
});

/** The two tools a `--dynamic-toolsets` server starts with. */
export const DISCOVERY_TOOLS: readonly AnyTool<unknown>[] = [listarGrupos, activarGrupo];

/** The size of a `tools/list` answer as a client receives it: UTF-8 bytes of its JSON, and bytes / 4 as tokens. */
export function listingSize(tools: readonly AnyTool<never>[]): { bytes: number; tokens: number } {
  const listing: ListToolsResult = { tools: tools.map((tool) => describeTool(tool as AnyTool<unknown>)) };
  const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
  return { bytes, tokens: Math.ceil(bytes / 4) };
}

/**
 * The README table of what a server's `tools/list` costs: the whole server, each group alone, and the
 * discovery tools a `--dynamic-toolsets` session starts with.
 */
export function renderToolsetsTable(tools: readonly AnyTool<never>[]): string {
  // What the model is offered: view-only tools (MCP Apps) are the views', not in its prompt.
  const listed = tools.filter((tool) => !isViewOnly(tool as AnyTool<unknown>));
  const row = (label: string, members: readonly AnyTool<never>[]) => {
    const { bytes, tokens } = listingSize(members);
    return `| ${label} | ${members.map((t) => `\`${t.name}\``).join(', ')} | ${bytes} | ${tokens} |`;
  };
  return [
    '| toolset | tools | `tools/list` bytes | ≈ tokens (bytes / 4) |',
    '|---|---|---|---|',
    ...toolsetsOf(listed).map((name) =>
      row(
        `\`${name}\``,
        listed.filter((tool) => tool.toolset === name),
      ),
    ),
    row('all (default)', listed),
    row('`--dynamic-toolsets` at start', DISCOVERY_TOOLS as readonly AnyTool<never>[]),
  ].join('\n');
}
