#!/usr/bin/env node
// The floor: the least a Node process can do to speak MCP over stdio. Newline-delimited JSON-RPC read with
// readline, no dependencies, no validation. Answers initialize, tools/list (one tool), tools/call (a
// trivial text result) and ping; any other request gets -32601; notifications get nothing.
import { createInterface } from 'node:readline';

const TOOL = {
  name: 'satelite_info',
  description: 'Datos de catálogo de un satélite.',
  inputSchema: {
    type: 'object',
    properties: { norad_id: { type: 'number' } },
    required: ['norad_id'],
  },
};

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  if (message.id === undefined || message.id === null) return; // notification
  const { id, method, params } = message;
  switch (method) {
    case 'initialize':
      send({
        id,
        result: {
          protocolVersion: params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'raw-echo', version: '0.0.0' },
        },
      });
      return;
    case 'tools/list':
      send({ id, result: { tools: [TOOL] } });
      return;
    case 'tools/call':
      send({
        id,
        result: { content: [{ type: 'text', text: `satélite ${params?.arguments?.norad_id}: ok` }] },
      });
      return;
    case 'ping':
      send({ id, result: {} });
      return;
    default:
      send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
lines.on('close', () => process.exit(0));
