import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes, errorResponse } from '../protocol/errors.js';
import { parseLine } from '../protocol/messages.js';
import {
  cancelledId,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_INFLIGHT,
  InflightRequests,
  requestId,
  responseId,
} from './flow.js';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface StdioTransportOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream & {
    writableLength?: number;
    writableNeedDrain?: boolean;
    cork?(): void;
    uncork?(): void;
  };
  /** A line longer than this is answered with an error and discarded; the server lives on. */
  maxLineBytes?: number;
  /** Requests served at once; the next one is not read until one of them is answered. */
  maxInflight?: number;
  /** Unwritten stdout beyond this stops the reading of stdin until the client reads again. */
  maxBufferedBytes?: number;
}

const NEWLINE = 0x0a;
/** A line this long leaves at once: batching saves system calls on small answers, not on large ones. */
const BATCHED_LINE_CHARS = 64 * 1024;
const BOM = '\uFEFF';

/**
 * Newline-delimited JSON-RPC over stdin/stdout. Unlike the SDK's stdio transport it answers what it cannot
 * read (-32700 for a line that is not JSON, an error for a line over the size limit) instead of dropping it,
 * never buffers more than one line's limit, and never writes anything but JSON-RPC to stdout.
 *
 * Backpressure end to end: no further line is parsed while the client leaves more than `maxBufferedBytes`
 * of stdout unread, nor while `maxInflight` requests are unanswered. What already arrived is held (stdin is
 * paused once that exceeds a line's limit), so the rest of the client's work waits in the pipe, where the
 * client's own writes block, never in this process. Memory under a client that stops reading is thus
 * bounded by the buffer bound, the held input and the answers of the requests in flight.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: NodeJS.ReadableStream;
  private readonly output: NonNullable<StdioTransportOptions['output']>;
  private readonly maxLineBytes: number;
  private readonly maxBufferedBytes: number;
  private readonly inflight: InflightRequests;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes of an oversized line seen so far, while the rest of it is skipped. */
  private skipping: number | undefined;
  /** A request read while the in-flight limit was reached: admitted when a slot frees. */
  private waiting: JSONRPCMessage | undefined;
  /** Input that arrived while reading was stalled, not parsed yet (in order). */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private paused = false;
  private pumping = false;
  private pumpScheduled: NodeJS.Immediate | undefined;
  private firstLine = true;
  private closed = false;
  private drained: Promise<void> | undefined;
  /** Lines sent during this turn of the event loop, not handed to stdout yet. */
  private outbox: string[] = [];
  /** Settles when the outbox has been handed to stdout. */
  private flushed: Promise<void> | undefined;

  constructor(options: StdioTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.inflight = new InflightRequests(options.maxInflight ?? DEFAULT_MAX_INFLIGHT);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
    this.output.on('drain', this.onDrain);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const answered = responseId(message);
    const write = this.write(message);
    if (answered !== undefined) {
      this.inflight.settle(answered);
      // A slot is free: read on in a later turn of the event loop, never in this chain of microtasks. An
      // in-process system answers without real I/O, and reading on from a microtask would run every queued
      // request before stdin's end, a signal or a timer could be seen (shutdown would wait for them all).
      if (this.waiting) this.schedulePump();
    }
    await write;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // What was answered already goes out; only work not started is dropped.
    this.flush();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.output.off('drain', this.onDrain);
    // Work not started yet is dropped: a closing server answers nothing more.
    this.chunks = [];
    this.held = [];
    this.heldBytes = 0;
    this.waiting = undefined;
    this.inflight.clear();
    if (this.pumpScheduled) clearImmediate(this.pumpScheduled);
    this.onclose?.();
  }

  /**
   * Queues a line for stdout. The lines of one turn (every answer settled in the same run of microtasks)
   * leave together, in one system call instead of one each, as soon as that run is over
   * (`process.nextTick`): never later, so the backpressure gate below sees stdout as it is. A large line
   * (`BATCHED_LINE_CHARS`) is not held at all. Resolves once the line is handed over, and when stdout is
   * full, once it drained.
   */
  private write(message: JSONRPCMessage | ReturnType<typeof errorResponse>): Promise<void> {
    if (this.closed) return Promise.resolve();
    const line = `${JSON.stringify(message)}\n`;
    this.outbox.push(line);
    if (line.length >= BATCHED_LINE_CHARS) {
      // With what is queued before it, in order. Held back with others of its turn, a large answer would
      // only raise the peak of memory while stdout is full.
      this.flush();
      return this.drained ?? Promise.resolve();
    }
    this.flushed ??= new Promise<void>((resolve) => {
      process.nextTick(() => {
        this.flush();
        resolve();
      });
    });
    // Once the pipe is full, every sender waits for the same drain instead of piling up one listener per
    // message; the line is in Node's buffer already, and `stalled` keeps new work from adding more.
    return this.flushed.then(() => this.drained);
  }

  private flush(): void {
    this.flushed = undefined;
    if (this.closed || this.outbox.length === 0) return;
    const lines = this.outbox;
    this.outbox = [];
    // Corked only while the lines are handed over, all in this call: they leave in one writev, and no
    // copy of them all is made (joining a turn of large answers would hold each one twice).
    this.output.cork?.();
    let room = true;
    for (const line of lines) room = this.output.write(line);
    this.output.uncork?.();
    if (!room) {
      this.drained ??= new Promise<void>((resolve) => {
        this.output.once('drain', () => {
          this.drained = undefined;
          resolve();
        });
      });
    }
  }

  /** No line may be parsed now: the client is not reading its answers, or too many are pending. */
  private get stalled(): boolean {
    return this.waiting !== undefined || this.outputBlocked;
  }

  /** The client has left more than the bound of stdout unread. */
  private get outputBlocked(): boolean {
    return (
      this.output.writableNeedDrain === true && (this.output.writableLength ?? 0) > this.maxBufferedBytes
    );
  }

  private readonly onData = (data: Buffer | string): void => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.held.length > 0 || this.stalled) this.hold(chunk);
    else this.consume(chunk, false);
  };

  /**
   * Parses the lines of a chunk until reading stalls; what is left of it goes back to the front of the held
   * input (copied when the chunk is the stream's, which may reuse its memory).
   */
  private consume(data: Buffer, owned: boolean): void {
    let chunk = data;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      this.take(chunk.subarray(0, newline));
      this.endLine();
      chunk = chunk.subarray(newline + 1);
      if (this.closed) return;
      if (this.stalled) {
        if (chunk.length > 0) this.unshiftHeld(owned ? chunk : Buffer.from(chunk));
        return;
      }
      newline = chunk.indexOf(NEWLINE);
    }
    if (chunk.length > 0) this.take(chunk);
  }

  private hold(chunk: Buffer): void {
    this.held.push(Buffer.from(chunk));
    this.heldBytes += chunk.length;
    if (!this.paused && this.heldBytes > this.maxLineBytes) {
      this.paused = true;
      this.input.pause();
    }
  }

  private unshiftHeld(chunk: Buffer): void {
    this.held.unshift(chunk);
    this.heldBytes += chunk.length;
  }

  /**
   * stdout took what it held: read on, in a later turn like a freed slot. Node emits 'drain' from
   * `process.nextTick`, and every batch of answers can fill and drain the pipe, so pumping right here
   * would chain ticks (answer, write, drain, read, answer…) past stdin's end and the signals.
   */
  private readonly onDrain = (): void => this.schedulePump();

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = setImmediate(() => {
      this.pumpScheduled = undefined;
      this.pump();
    });
  }

  /** Reads on from where reading stalled, as far as it can now go. */
  private readonly pump = (): void => {
    if (this.closed || this.pumping || this.outputBlocked) return;
    this.pumping = true;
    try {
      if (this.waiting) {
        if (this.inflight.full) return;
        const message = this.waiting;
        this.waiting = undefined;
        this.admit(message);
      }
      while (!this.stalled && !this.closed) {
        const chunk = this.held.shift();
        if (!chunk) break;
        this.heldBytes -= chunk.length;
        this.consume(chunk, true);
      }
      if (this.paused && this.heldBytes <= this.maxLineBytes) {
        this.paused = false;
        this.input.resume();
      }
    } finally {
      this.pumping = false;
    }
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
    this.chunks.push(Buffer.from(part));
    this.buffered += part.length;
  }

  private endLine(): void {
    const first = this.firstLine;
    this.firstLine = false;
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
    let line = Buffer.concat(this.chunks, this.buffered).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.buffered = 0;
    // Windows tools often start what they write with a byte-order mark; only the stream's start may carry it.
    if (first && line.startsWith(BOM)) line = line.slice(BOM.length);
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (!parsed.ok) {
      this.answer(parsed.reply);
      return;
    }
    const message = parsed.value as JSONRPCMessage;
    if (requestId(message) !== undefined && this.inflight.full) this.waiting = message;
    else this.admit(message);
  }

  private admit(message: JSONRPCMessage): void {
    const id = requestId(message);
    if (id !== undefined) this.inflight.add(id);
    else {
      // The SDK sends no answer to a cancelled request: its slot is free now.
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) this.inflight.settle(cancelled);
    }
    this.onmessage?.(message);
  }

  /** Answers what never reached the server (so it settles nothing in flight). */
  private answer(message: ReturnType<typeof errorResponse>): void {
    this.write(message).catch((error: unknown) => this.onerror?.(error as Error));
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
