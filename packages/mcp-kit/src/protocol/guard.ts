import { allowedBeforeInitialized, NOT_INITIALIZED_MESSAGE } from '@code-cluster/shared/protocol';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ClientNotificationSchema,
  ClientRequestSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logging.js';
import { ErrorCodes, errorResponse, type JsonRpcId } from './errors.js';
import { classifyMessage, isValidId } from './messages.js';
import type { ProtocolSession } from './session.js';
import { oversizedUri } from './uri-bound.js';
import { isSupportedVersion, LATEST_PROTOCOL_VERSION } from './versions.js';

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: ZodIssueLike[] } } };
type ZodIssueLike = { path: PropertyKey[]; message: string };

function byMethod(union: { options: readonly unknown[] }): Map<string, Schema> {
  const map = new Map<string, Schema>();
  for (const option of union.options as Array<Schema & { shape: { method: { value: string } } }>) {
    map.set(option.shape.method.value, option);
  }
  return map;
}

let requestSchemas: Map<string, Schema> | undefined;
let notificationSchemas: Map<string, Schema> | undefined;

/**
 * Sits between a transport and the SDK's `Server` and enforces what the SDK leaves open: the order of the
 * lifecycle, one `initialize` per session, -32602 (not -32603 with a zod dump) for malformed params, the
 * cluster's list of protocol versions, and no internals in -32603 errors. Transport-agnostic: it wraps
 * any SDK `Transport`.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private initializeId: JsonRpcId | undefined;

  constructor(
    private readonly inner: Transport,
    readonly session: ProtocolSession,
    private readonly logger: Logger,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.session.phase = 'closed';
      this.onclose?.();
    };
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(this.outgoing(message), options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private receive(raw: unknown, extra?: MessageExtraInfo): void {
    const incoming = classifyMessage(raw);
    switch (incoming.kind) {
      case 'invalid':
        if (incoming.reply) this.reply(incoming.reply);
        else this.logger.debug('dropped a malformed notification', { reason: incoming.reason });
        return;
      case 'response':
        this.onmessage?.(incoming.message, extra);
        return;
      case 'notification':
        this.receiveNotification(incoming.method, incoming.message, extra);
        return;
      case 'request':
        this.receiveRequest(incoming.id, incoming.method, incoming.message, extra);
        return;
    }
  }

  private receiveNotification(method: string, message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (method === 'notifications/cancelled') {
      // A cancelled request is never answered: its id is free again once the SDK has acted on the
      // cancellation, which it does a microtask later; a request reusing the id before that would take the
      // cancellation (and the SDK's handle on the first request) for itself.
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      const token = isValidId(requestId) ? this.session.inflight.get(requestId) : undefined;
      if (token) {
        setImmediate(() => {
          if (this.session.inflight.get(requestId as JsonRpcId) === token)
            this.session.inflight.delete(requestId as JsonRpcId);
        });
      }
    }
    if (method === 'notifications/initialized') {
      if (this.session.phase === 'initializing') this.session.phase = 'ready';
      else this.logger.debug('ignored notifications/initialized out of order', { phase: this.session.phase });
      this.forward(message, extra);
      return;
    }
    if (this.session.phase !== 'ready') {
      this.logger.debug('dropped a notification received before the handshake', { method });
      return;
    }
    notificationSchemas ??= byMethod(ClientNotificationSchema);
    const schema = notificationSchemas.get(method);
    if (schema && !schema.safeParse(message).success) {
      this.logger.debug('dropped a notification with malformed params', { method });
      return;
    }
    this.forward(message, extra);
  }

  private receiveRequest(
    id: JsonRpcId,
    method: string,
    message: JSONRPCMessage,
    extra?: MessageExtraInfo,
  ): void {
    if (this.session.inflight.has(id)) {
      this.reply(reusedIdError(id));
      return;
    }
    if (method === 'initialize' && this.session.phase !== 'awaiting-initialize') {
      this.reply(
        errorResponse(id, ErrorCodes.InvalidRequest, 'Invalid Request: the session is already initialized'),
      );
      return;
    }
    if (this.session.phase !== 'ready' && !allowedBeforeInitialized(method)) {
      this.reply(errorResponse(id, ErrorCodes.ServerNotInitialized, NOT_INITIALIZED_MESSAGE));
      return;
    }
    requestSchemas ??= byMethod(ClientRequestSchema);
    const schema = requestSchemas.get(method);
    const parsed = schema?.safeParse(message);
    if (parsed && !parsed.success) {
      this.reply(
        errorResponse(
          id,
          ErrorCodes.InvalidParams,
          `Invalid params: ${describeIssues(parsed.error?.issues ?? [])}`,
        ),
      );
      return;
    }
    const tooLong = oversizedUri(id, method, message);
    if (tooLong) {
      this.reply(tooLong);
      return;
    }
    if (method === 'initialize') {
      this.session.phase = 'initializing';
      this.initializeId = id;
      message = withSupportedVersion(message);
      // Known now, not only once the answer is sent: a request pipelined right behind the handshake is
      // judged by the version it negotiated.
      this.session.protocolVersion = (
        message as unknown as { params: { protocolVersion: string } }
      ).params.protocolVersion;
    }
    this.session.inflight.set(id, {});
    this.forward(message, extra);
  }

  /** Watches what the server sends: records the negotiated version, keeps internals off the wire. */
  private outgoing(message: JSONRPCMessage): JSONRPCMessage {
    if ('id' in message && !('method' in message) && message.id !== undefined)
      this.session.inflight.delete(message.id);
    if ('id' in message && message.id === this.initializeId && 'result' in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') this.session.protocolVersion = version;
      this.initializeId = undefined;
    }
    if (
      'error' in message &&
      message.error.code === ErrorCodes.InternalError &&
      message.error.message !== 'Internal error'
    ) {
      this.logger.error('internal error answered to the client', { detail: message.error.message });
      return { ...message, error: { code: ErrorCodes.InternalError, message: 'Internal error' } };
    }
    return message;
  }

  private forward(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  private reply(message: ReturnType<typeof errorResponse>): void {
    this.inner.send(message as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
  }
}

/** A client asking for a version we do not speak is answered with the newest one; it then decides. */
function withSupportedVersion(message: JSONRPCMessage): JSONRPCMessage {
  const params = (message as unknown as { params: { protocolVersion: unknown } }).params;
  if (isSupportedVersion(params.protocolVersion)) return message;
  return { ...message, params: { ...params, protocolVersion: LATEST_PROTOCOL_VERSION } } as JSONRPCMessage;
}

function describeIssues(issues: ZodIssueLike[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`)
    .join('; ');
}

export function reusedIdError(id: JsonRpcId): ReturnType<typeof errorResponse> {
  return errorResponse(
    id,
    ErrorCodes.InvalidRequest,
    `Invalid Request: id ${JSON.stringify(id)} is already used by a request in progress; use a new id`,
  );
}
