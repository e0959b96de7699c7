// How the stdio transport hands its lines to stdout: real Node streams in this process, each write() that
// reaches stdout recorded as it arrives.
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio.js';

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
const line = (id: number) => `${JSON.stringify(answer(id))}\n`;

/**
 * A stdout that records every write that reaches it, a writev (several chunks in one system call, as a
 * socket or pipe does) as one entry; with `hold`, it keeps each callback until `release()`.
 */
function recordingOutput(options: { highWaterMark?: number; hold?: boolean } = {}) {
  const writes: string[] = [];
  const held: Array<() => void> = [];
  const record = (text: string, done: () => void) => {
    writes.push(text);
    if (options.hold) held.push(() => done());
    else done();
  };
  const output = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      record(chunk.toString('utf8'), done);
    },
    writev(chunks, done) {
      record(chunks.map(({ chunk }) => (chunk as Buffer).toString('utf8')).join(''), done);
    },
  });
  const release = () => {
    for (const done of held.splice(0)) done();
  };
  return { output, writes, release };
}

const transports: StdioTransport[] = [];
function transportOn(output: Writable) {
  const transport = new StdioTransport({ input: new PassThrough(), output });
  transports.push(transport);
  return transport;
}
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

describe('stdio: writes to stdout', () => {
  it('writes the answers of one turn together, in order, once that turn is over', async () => {
    const { output, writes } = recordingOutput();
    const transport = transportOn(output);
    await transport.start();
    const sent = [transport.send(answer(1)), transport.send(answer(2)), transport.send(answer(3))];
    // Nothing is written while the turn that answered is still running...
    expect(writes).toEqual([]);
    await Promise.all(sent);
    // ...and then all of it at once, before any send resolved.
    expect(writes).toEqual([line(1) + line(2) + line(3)]);
  });

  it('holds nothing past its turn: an answer of a later turn is written on its own', async () => {
    const { output, writes } = recordingOutput();
    const transport = transportOn(output);
    await transport.start();
    await transport.send(answer(1));
    expect(writes).toEqual([line(1)]);
    await new Promise((resolve) => setImmediate(resolve));
    await transport.send(answer(2));
    expect(writes).toEqual([line(1), line(2)]);
  });

  it('writes a large answer at once, after what was queued before it', async () => {
    const { output, writes } = recordingOutput();
    const transport = transportOn(output);
    await transport.start();
    const large: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { text: 'x'.repeat(70 * 1024) } };
    const sent = [transport.send(answer(1)), transport.send(large)];
    // Not held until the turn is over: both lines are out already, in the order they were sent.
    expect(writes).toEqual([line(1) + `${JSON.stringify(large)}\n`]);
    await Promise.all(sent);
    await transport.send(answer(3));
    expect(writes).toHaveLength(2);
  });

  it('hands over what was answered before it closes, and nothing after', async () => {
    const { output, writes } = recordingOutput();
    const transport = transportOn(output);
    await transport.start();
    const sent = transport.send(answer(1));
    await transport.close();
    expect(writes).toEqual([line(1)]);
    await sent;
    await transport.send(answer(2));
    expect(writes).toEqual([line(1)]);
  });

  it('resolves a send into a full stdout only once stdout has drained', async () => {
    const { output, writes, release } = recordingOutput({ highWaterMark: 8, hold: true });
    const transport = transportOn(output);
    await transport.start();
    let settled = false;
    const sent = transport.send(answer(1)).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([line(1)]);
    expect(settled).toBe(false);
    release();
    await sent;
    expect(settled).toBe(true);
  });
});
