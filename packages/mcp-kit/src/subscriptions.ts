import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from './logging.js';
import { ErrorCodes, ProtocolError } from './protocol/errors.js';

/** Stops watching one resource; called once. */
export type StopWatching = () => void;

/**
 * The resources of a server that a client may subscribe to (`resources/subscribe`), and how to watch one.
 * The kit keeps the subscriptions of each session and sends `notifications/resources/updated`; the app
 * only says which URIs can change and how it notices a change.
 */
export interface ResourceSubscriptions {
  /** URI templates of the subscribable resources, quoted to a client that asks for another URI. */
  templates: readonly string[];
  /**
   * Whether `uri` names a subscribable resource. One that does not is refused with -32602 when it is in one
   * of the templates' schemes, and accepted as a subscription that never notifies otherwise.
   */
  matches(uri: string): boolean;
  /**
   * Starts watching one resource for one session: `onChange` runs after every change. When the returned
   * promise settles, watching has begun, so a change made after the subscribe answer is never missed.
   */
  watch(uri: string, onChange: () => void): StopWatching | Promise<StopWatching>;
}

/** Bounds what one client can make the server watch. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;

export interface SubscriptionRegistry {
  /** URIs this session is subscribed to. */
  readonly uris: ReadonlySet<string>;
  /** Stops every watcher of the session (also done when its transport closes). */
  close(): Promise<void>;
}

/**
 * Implements `resources/subscribe` and `resources/unsubscribe`, which the SDK's McpServer leaves out, for
 * one session (one server instance per session: stdio has one, HTTP one per `Mcp-Session-Id`). Declares
 * `capabilities.resources.subscribe`, so it must run before `connect`.
 */
export function registerSubscriptions(
  server: McpServer,
  subscriptions: ResourceSubscriptions,
  logger: Logger,
): SubscriptionRegistry {
  // A watcher being set up is kept as its promise, so a quick unsubscribe or close still stops it.
  const watchers = new Map<string, Promise<StopWatching | undefined>>();
  let closed = false;

  // A URI in one of this server's own schemes that matches no subscribable template is a mistake worth
  // reporting (a typo in a topic, say). A URI of another scheme names nothing this server has: the
  // subscription is accepted and inert — it will never notify — as a resource that never changes would be.
  const ownSchemes = new Set(subscriptions.templates.map((template) => template.split('://')[0]!));
  const isInert = (uri: string): boolean => {
    if (subscriptions.matches(uri)) return false;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1];
    if (scheme && !ownSchemes.has(scheme)) return true;
    throw new ProtocolError(
      ErrorCodes.InvalidParams,
      `Resource not subscribable: ${uri}. Subscribable resources: ${subscriptions.templates.join(', ')}`,
      { uri },
    );
  };
  const inert = new Set<string>();

  const notify = (uri: string) => {
    if (closed || !watchers.has(uri)) return;
    server.server.sendResourceUpdated({ uri }).catch((error: unknown) => {
      logger.debug('could not send resources/updated', { uri, error });
    });
  };

  const stop = async (uri: string): Promise<void> => {
    const watcher = watchers.get(uri);
    watchers.delete(uri);
    const stopWatching = await watcher?.catch(() => undefined);
    try {
      stopWatching?.();
    } catch (error) {
      logger.warning('stopping a resource watcher failed', { uri, error });
    }
  };

  const closeAll = async () => {
    closed = true;
    await Promise.all([...watchers.keys()].map(stop));
  };

  server.server.registerCapabilities({ resources: { subscribe: true } });

  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (isInert(uri)) {
      if (!inert.has(uri) && inert.size + watchers.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
        throw new ProtocolError(
          ErrorCodes.InvalidParams,
          `Too many subscriptions: a session may watch at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources; ` +
            'unsubscribe from some first',
          { uri },
        );
      }
      inert.add(uri);
      logger.warning('subscription to a resource this server does not have: it will never notify', { uri });
      return {};
    }
    const pending = watchers.get(uri);
    if (pending) {
      // Subscribing again is harmless: one watcher per URI and session, one notification per change.
      await pending;
      return {};
    }
    if (watchers.size + inert.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new ProtocolError(
        ErrorCodes.InvalidParams,
        `Too many subscriptions: a session may watch at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources; ` +
          'unsubscribe from some first',
        { uri },
      );
    }
    const watching = Promise.resolve().then(() => subscriptions.watch(uri, () => notify(uri)));
    watchers.set(uri, watching);
    try {
      await watching;
    } catch (error) {
      if (watchers.get(uri) === watching) watchers.delete(uri);
      throw error;
    }
    logger.debug('resource subscribed', { uri });
    return {};
  });

  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (isInert(uri)) {
      inert.delete(uri);
      return {};
    }
    await stop(uri);
    logger.debug('resource unsubscribed', { uri });
    return {};
  });

  // The transport closing (stdin end, HTTP session end) ends the session and every watcher with it.
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    void closeAll();
  };

  return {
    get uris() {
      return new Set(watchers.keys());
    },
    close: closeAll,
  };
}

/**
 * Stateless HTTP has no stream on which `notifications/resources/updated` could ever reach the client
 * (no session, no GET stream): the server does not declare `resources.subscribe`, and a client that
 * subscribes anyway is told why instead of getting a subscription that never notifies.
 */
export function refuseSubscriptions(server: McpServer): void {
  const refuse = (): never => {
    throw new ProtocolError(
      ErrorCodes.MethodNotFound,
      'Method not found: this server runs stateless (--stateless): it has no stream to send ' +
        'notifications/resources/updated on, so it offers no subscriptions; read the resource again instead',
    );
  };
  server.server.setRequestHandler(SubscribeRequestSchema, refuse);
  server.server.setRequestHandler(UnsubscribeRequestSchema, refuse);
}
