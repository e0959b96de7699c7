// The official TypeScript SDK client (the workspace's own @modelcontextprotocol/sdk), on the project's
// Node. Its callTool validates structuredContent against the tool's outputSchema (cached by listTools),
// so every call of the scenario is held to its declared schema.
import { esmEntry } from '../../bench/lib/esm-entry.mjs';
import { allPages, driverOptions, pinInitialize, report, runScenario } from '../lib/scenario.mjs';

const sdk = (path) => import(esmEntry('@modelcontextprotocol/sdk', path));
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { ResourceUpdatedNotificationSchema } = await sdk('types.js');

const options = driverOptions();

async function connect({ version }) {
  const transport =
    options.transport === 'stdio'
      ? new StdioClientTransport({
          command: options.command,
          args: options.args,
          env: options.env,
          stderr: 'ignore',
        })
      : new StreamableHTTPClientTransport(new URL(options.url));
  // The SDK's Client always asks for its newest version and keeps the answer to itself: a pin rewrites
  // the request, and the answer is read as it arrives.
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => send(pinInitialize(message, version), sendOptions);
  let negotiated;
  let onmessage;
  Object.defineProperty(transport, 'onmessage', {
    get: () => onmessage,
    set: (handler) => {
      onmessage = (message, extra) => {
        if (message.result?.protocolVersion && !negotiated) negotiated = message.result.protocolVersion;
        handler?.(message, extra);
      };
    },
  });
  const client = new Client({ name: 'clients-check-ts-sdk', version: '1.0.0' });
  await client.connect(transport);
  const listeners = new Map();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    for (const listener of listeners.values()) listener(n.params.uri);
  });
  return {
    negotiated,
    capabilities: client.getServerCapabilities(),
    toolsNote: 'structuredContent validated against each outputSchema by the SDK',
    listTools: () => allPages((cursor) => client.listTools({ cursor }), 'tools'),
    listResources: () => allPages((cursor) => client.listResources({ cursor }), 'resources'),
    listTemplates: () => allPages((cursor) => client.listResourceTemplates({ cursor }), 'resourceTemplates'),
    listPrompts: () => allPages((cursor) => client.listPrompts({ cursor }), 'prompts'),
    callTool: (name, args, { onProgress, signal }) =>
      client.callTool({ name, arguments: args }, undefined, {
        onprogress: onProgress,
        signal,
        timeout: 120_000,
      }),
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    complete: (ref, argument, context) =>
      client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) }),
    subscribe: async (uri, onUpdated) => {
      listeners.set(uri, onUpdated);
      await client.subscribeResource({ uri });
    },
    unsubscribe: async (uri) => {
      await client.unsubscribeResource({ uri });
      listeners.delete(uri);
    },
    close: async () => {
      if (transport.sessionId) await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

try {
  await runScenario(
    { can: { complete: true, subscribe: true, progress: true, cancel: true, pin: true }, connect },
    options.scenario,
    options.server,
  );
} catch (error) {
  report('driver', false, error?.stack ?? String(error));
}
process.exit(0);
