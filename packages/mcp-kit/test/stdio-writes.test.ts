// How the stdio transport hands its answers to stdout: real Node streams, the transport in process.
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio.js';

/** A stdout that records every write the stream makes to its sink: one entry per system call a pipe would make. */
function recordingOutput() {
  const writes: string[][] = [];
  const output = new Writable({
    write(chunk, _encoding, callback) {
      writes.push([String(chunk)]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map((c) => String(c.chunk)));
      callback();
    },
  });
  return { output, writes };
}

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('stdio: writing answers', () => {
  it('sends the answers finished in one turn in one write, each a whole line, in order', async () => {
    const { output, writes } = recordingOutput();
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    await Promise.all([1, 2, 3].map((id) => transport.send(answer(id))));
    expect(writes).toHaveLength(1);
    const [lines = []] = writes;
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([1, 2, 3]);
    expect(lines.every((line) => line.endsWith('}\n'))).toBe(true);
    // A later turn is a write of its own: nothing waits for more answers to come.
    await transport.send(answer(4));
    expect(writes).toHaveLength(2);
    await transport.close();
  });

  it('has handed an answer to stdout once send resolves', async () => {
    const { output, writes } = recordingOutput();
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    await transport.send(answer(1));
    expect(writes.flat().map((line) => JSON.parse(line).id)).toEqual([1]);
    await transport.close();
  });

  it('hands what was sent to stdout when it closes in the same turn (before the process may exit)', async () => {
    const { output, writes } = recordingOutput();
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    void transport.send(answer(1));
    await transport.close();
    expect(writes.flat().map((line) => JSON.parse(line).id)).toEqual([1]);
  });
});
