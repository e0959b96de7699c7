import { ProtocolError, RESOURCE_NOT_FOUND } from '@code-cluster/mcp-kit';
import { SystemError } from '@code-cluster/shared';
import { LAB_ID_PATTERN } from '@code-cluster/shared/lab';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type LabDeps, progressOf } from './deps.js';

export const STATEMENT_TEMPLATE = 'lab://laboratorios/{laboratorio}/enunciado';

export function statementUri(lab: string): string {
  return `lab://laboratorios/${lab}/enunciado`;
}

const STATEMENT_URI = /^lab:\/\/laboratorios\/([^/]+)\/enunciado$/;

/** The lab a statement URI names, or undefined when it names none. */
export function labOfUri(uri: string): string | undefined {
  const lab = STATEMENT_URI.exec(uri)?.[1];
  return lab !== undefined && LAB_ID_PATTERN.test(lab) ? lab : undefined;
}

/** The labs open to the session's student that start with what the client typed. */
export async function completeLab(deps: LabDeps, value: string): Promise<string[]> {
  const { labs } = await deps.lab.listLabs();
  const needle = value.trim().toLowerCase();
  return progressOf(deps)
    .open(labs.map((l) => l.id))
    .filter((id) => id.startsWith(needle));
}

export function registerResources(server: McpServer, deps: LabDeps): void {
  server.registerResource(
    'enunciado',
    new ResourceTemplate(STATEMENT_TEMPLATE, {
      list: async ({ signal }) => {
        const { labs } = await deps.lab.listLabs(signal);
        // A locked lab's statement stays readable by its URI; it is just not offered yet.
        const open = new Set(progressOf(deps).open(labs.map((l) => l.id)));
        return {
          resources: labs
            .filter((l) => open.has(l.id))
            .map((l) => ({
              uri: statementUri(l.id),
              name: l.id,
              title: l.title,
              description: l.summary,
              mimeType: 'text/markdown',
            })),
        };
      },
      complete: { laboratorio: (value) => completeLab(deps, value) },
    }),
    {
      title: 'Enunciado de un laboratorio',
      description:
        'El enunciado de un laboratorio en markdown: qué entregar, en qué formato y qué reglas comprueba el corrector.',
      mimeType: 'text/markdown',
    },
    async (uri, _variables, { signal }) => {
      const lab = labOfUri(uri.href);
      if (!lab) throw notFound(uri);
      try {
        const statement = await deps.lab.statement(lab, signal);
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: statement.markdown }] };
      } catch (error) {
        if (error instanceof SystemError && error.status === 404) throw notFound(uri);
        throw error;
      }
    },
  );
}

function notFound(uri: URL): ProtocolError {
  return new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href}`, { uri: uri.href });
}
