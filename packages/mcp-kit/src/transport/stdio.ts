import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes, errorResponse } from '../protocol/errors.js';
import { parseLine } from '../protocol/messages.js';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface StdioTransportOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** A line longer than this is answered with an error and discarded; the server lives on. */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Newline-delimited JSON-RPC over stdin/stdout. Unlike the SDK's stdio transport it answers what it cannot
 * read (-32700 for a line that is not JSON, an error for a line over the size limit) instead of dropping it,
 * never buffers more than one line's limit, and never writes anything but JSON-RPC to stdout.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly maxLineBytes: number;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes of an oversized line seen so far, while the rest of it is skipped. */
  private skipping: number | undefined;
  private closed = false;
  private drained: Promise<void> | undefined;

  constructor(options: StdioTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    // Backpressure: once the pipe is full, every sender waits for the same drain instead of growing
    // Node's buffer without bound (or piling up one listener per message).
    if (!this.output.write(`${JSON.stringify(message)}\n`)) {
      this.drained ??= new Promise<void>((resolve) => {
        this.output.once('drain', () => {
          this.drained = undefined;
          resolve();
        });
      });
    }
    await this.drained;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onData = (data: Buffer | string): void => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      this.take(chunk.subarray(0, newline));
      this.endLine();
      chunk = chunk.subarray(newline + 1);
      newline = chunk.indexOf(NEWLINE);
    }
    if (chunk.length > 0) this.take(chunk);
  };

  private take(part: Buffer): void {
    if (this.skipping !== undefined) {
      this.skipping += part.length;
      return;
    }
    if (this.buffered + part.length > this.maxLineBytes) {
      this.skipping = this.buffered + part.length;
      this.chunks = [];
      this.buffered = 0;
      return;
    }
    // Copy: the stream may reuse the chunk's memory after this callback returns.
    this.chunks.push(Buffer.from(part));
    this.buffered += part.length;
  }

  private endLine(): void {
    if (this.skipping !== undefined) {
      const size = this.skipping;
      this.skipping = undefined;
      this.answer(
        errorResponse(
          null,
          ErrorCodes.InvalidRequest,
          `Invalid Request: message of ${size} bytes exceeds the limit of ${this.maxLineBytes} bytes`,
        ),
      );
      return;
    }
    const line = Buffer.concat(this.chunks, this.buffered).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.buffered = 0;
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) this.onmessage?.(parsed.value as JSONRPCMessage);
    else this.answer(parsed.reply);
  }

  private answer(message: ReturnType<typeof errorResponse>): void {
    this.send(message as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    // EPIPE on stdout means the client is gone: that is a close, not a crash.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') void this.close();
    else this.onerror?.(error);
  };
}
