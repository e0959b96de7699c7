// The AI SDK's MCP client (@ai-sdk/mcp, pinned in scripts/clients/package.json): an implementation of
// its own, not built on the official SDK. It runs on the Node 24 binary (its engines ask for Node >= 22).
// It takes no in-band notifications: no progress, no resource subscriptions, and an aborted call is only
// abandoned locally (it sends no notifications/cancelled).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allPages, driverOptions, pinInitialize, report, runScenario } from '../lib/scenario.mjs';

const prefix = join(dirname(fileURLToPath(import.meta.url)), '../../../.tools/clients');
const requireHere = createRequire(join(prefix, 'package.json'));
const load = (name) => import(pathToFileURL(requireHere.resolve(name)).href);
const { createMCPClient } = await load('@ai-sdk/mcp');
const { Experimental_StdioMCPTransport } = await load('@ai-sdk/mcp/mcp-stdio');

const options = driverOptions();

/** The client has no option for a version: a pin rewrites the initialize request on its way out. */
function pinnedFetch(version) {
  return (url, init) => {
    if (!version || typeof init?.body !== 'string') return fetch(url, init);
    const message = JSON.parse(init.body);
    return fetch(url, { ...init, body: JSON.stringify(pinInitialize(message, version)) });
  };
}

async function connect({ version }) {
  let transport;
  if (options.transport === 'stdio') {
    transport = new Experimental_StdioMCPTransport({
      command: options.command,
      args: options.args,
      env: options.env,
      stderr: 'ignore',
    });
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => send(pinInitialize(message, version), sendOptions);
  } else {
    transport = { type: 'http', url: options.url, fetch: pinnedFetch(version) };
  }
  // Unpinned, the client opens with its server/discover probe (2026-07-28) and falls back to initialize.
  const client = await createMCPClient({
    transport,
    clientName: 'clients-check-ai-sdk',
    protocolVersionDiscovery: !version,
  });
  return {
    negotiated: client.initializeResult.protocolVersion,
    capabilities: client.initializeResult.capabilities,
    connectNote: version ? undefined : 'server/discover probe, then initialize',
    toolsNote: 'every tool converted to an AI SDK tool',
    listTools: async () => {
      const tools = await allPages((cursor) => client.listTools({ params: { cursor } }), 'tools');
      const converted = client.toolsFromDefinitions({ tools });
      const missing = tools.filter((t) => !converted[t.name]);
      if (missing.length) throw new Error(`not converted to AI SDK tools: ${missing.map((t) => t.name)}`);
      return tools;
    },
    listResources: () => allPages((cursor) => client.listResources({ params: { cursor } }), 'resources'),
    listTemplates: async () => (await client.listResourceTemplates()).resourceTemplates ?? [],
    listPrompts: () => allPages((cursor) => client.listPrompts({ params: { cursor } }), 'prompts'),
    callTool: (name, args) => client.callTool({ name, arguments: args, options: { timeout: 120_000 } }),
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    complete: (ref, argument, context) =>
      client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) }),
    close: () => client.close(),
  };
}

try {
  await runScenario(
    {
      can: {
        complete: true,
        subscribe: 'it takes no in-band notifications (notifications/resources/updated)',
        progress: 'it takes no in-band notifications (notifications/progress)',
        cancel: 'an aborted call is abandoned locally; no notifications/cancelled is sent',
        pin: true,
      },
      connect,
    },
    options.scenario,
    options.server,
  );
} catch (error) {
  report('driver', false, error?.stack ?? String(error));
}
process.exit(0);
