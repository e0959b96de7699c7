import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type ElicitRequestFormParams,
  ErrorCode,
  McpError,
  type RequestId,
  type Root,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * What the client answered, or why nothing was asked. Every outcome but `accepted` carries a Spanish
 * sentence a tool can put in its result as it is.
 */
export type Answer<T> =
  | { status: 'accepted'; value: T }
  | { status: 'declined' | 'cancelled' | 'timeout' | 'unavailable'; message: string };

/** A form-mode elicitation schema: a flat object of primitive fields (the spec's restricted JSON Schema). */
export type ElicitSchema = ElicitRequestFormParams['requestedSchema'];
export type ElicitContent = Record<string, string | number | boolean | string[]>;

export interface SampleRequest {
  /** The user message: anything untrusted in it must already be fenced (`fenceUntrusted`). */
  prompt: string;
  systemPrompt?: string;
  maxTokens: number;
}

/** The client's features a tool may use: each asks only a client that declared it, within the call's time. */
export interface ClientFeatures {
  /** Whether asking can work (the client declared the feature, the server keeps sessions): to skip preparing a question. */
  clientOffers(feature: ClientFeature): boolean;
  /** Asks the person a yes/no question (form-mode elicitation with one boolean field). */
  confirm(message: string): Promise<Answer<true>>;
  /** Asks the person to fill a form (form-mode elicitation); the SDK checks the answer against `schema`. */
  elicit(message: string, schema: ElicitSchema): Promise<Answer<ElicitContent>>;
  /**
   * Asks the client to take the person to `url` (URL-mode elicitation, 2025-11-25) for what must not pass
   * through the client (a credential): `accepted` means they agreed to go there, not that they are done.
   */
  openUrl(message: string, url: string, elicitationId: string): Promise<Answer<true>>;
  /** Tells the client the interaction of `openUrl` is over (`notifications/elicitation/complete`). */
  completeUrl(elicitationId: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`, `includeContext: 'none'`). */
  sample(request: SampleRequest): Promise<Answer<{ text: string; model: string }>>;
  /** The client's roots (`roots/list`), kept until the client sends `notifications/roots/list_changed`. */
  roots(): Promise<Answer<Root[]>>;
}

export type ClientFeature = 'elicitation' | 'url-elicitation' | 'sampling' | 'roots';

/** What the features need of the call they run in. */
export interface CallScope {
  signal: AbortSignal;
  /** The tool call's id: over Streamable HTTP a request related to it travels on the call's own stream. */
  requestId: RequestId;
  /** When the tool's own timeout fires (epoch ms): a question must be over before it. */
  deadline: number;
}

const METHODS: Record<ClientFeature, string> = {
  elicitation: 'elicitation/create',
  'url-elicitation': 'elicitation/create',
  sampling: 'sampling/createMessage',
  roots: 'roots/list',
};

/**
 * How long a wait inside a tool call (a question to the client, a page the person must send) may last:
 * until a moment before the call's timeout (`deadline`, epoch ms), so that the tool can still say what
 * happened instead of the timeout speaking for it. ms; zero or less when there is no time left.
 */
export function timeToAnswer(deadline: number): number {
  const left = deadline - Date.now();
  return left - Math.min(1000, left / 10);
}

/** The field `confirm` asks for. */
const CONFIRM_FIELD = 'confirmar';

/**
 * The client features of one session (one McpServer). Over stateless HTTP every feature is refused at once:
 * the client's answer would arrive in another request, at another server instance, and the call would hang.
 */
export function clientFeatures(
  server: McpServer,
  options: { stateless: boolean },
): { forCall(scope: CallScope): ClientFeatures } {
  const low = server.server;
  let roots: Promise<Root[]> | undefined;
  if (!options.stateless) {
    low.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      roots = undefined;
    });
  }

  const offers = (feature: ClientFeature) => {
    if (options.stateless) return false;
    const capabilities = low.getClientCapabilities();
    // URL mode is declared inside elicitation (`{"elicitation": {"url": {}}}`); `{}` alone means form only.
    return Boolean(feature === 'url-elicitation' ? capabilities?.elicitation?.url : capabilities?.[feature]);
  };
  const refusal = (feature: ClientFeature, what: string): Answer<never> | undefined => {
    if (offers(feature)) return undefined;
    if (options.stateless) {
      return {
        status: 'unavailable',
        message:
          `Este servidor funciona sin estado (--stateless) y no puede pedir ${what} al cliente ` +
          `(${METHODS[feature]}): la respuesta llegaría a otra petición.`,
      };
    }
    return { status: 'unavailable', message: `El cliente no ofrece ${what} (no declara '${feature}').` };
  };

  return {
    forCall(scope) {
      const budget = () => timeToAnswer(scope.deadline);
      const options = () => ({ signal: scope.signal, relatedRequestId: scope.requestId, timeout: budget() });

      /** Runs one request to the client; a timeout of ours becomes an answer, a cancellation stays thrown. */
      async function ask<T>(what: string, request: () => Promise<T>): Promise<Asked<T>> {
        const seconds = budget();
        if (seconds <= 0) return { failed: timedOut(what, 0) };
        try {
          return { answer: await request() };
        } catch (error) {
          if (scope.signal.aborted) throw error;
          if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
            return { failed: timedOut(what, seconds) };
          }
          const reason = error instanceof Error ? error.message : String(error);
          return {
            failed: {
              status: 'cancelled',
              message: `El cliente respondió a ${what} con un error: ${reason}.`,
            },
          };
        }
      }

      const elicit = async (message: string, schema: ElicitSchema): Promise<Answer<ElicitContent>> => {
        const refused = refusal('elicitation', 'confirmaciones ni datos');
        if (refused) return refused;
        const asked = await ask('la pregunta', () =>
          low.elicitInput({ mode: 'form', message, requestedSchema: schema }, options()),
        );
        if ('failed' in asked) return asked.failed;
        const result = asked.answer;
        if (result.action === 'accept')
          return { status: 'accepted', value: (result.content ?? {}) as ElicitContent };
        return result.action === 'decline'
          ? { status: 'declined', message: 'La persona rechazó la petición.' }
          : { status: 'cancelled', message: 'La persona cerró la petición sin responder.' };
      };

      return {
        clientOffers: offers,
        elicit,
        async openUrl(message, url, elicitationId) {
          const refused = refusal('url-elicitation', 'que la persona abra una página');
          if (refused) return refused;
          const asked = await ask('la petición de abrir la página', () =>
            low.elicitInput({ mode: 'url', message, url, elicitationId }, options()),
          );
          if ('failed' in asked) return asked.failed;
          const { action } = asked.answer;
          if (action === 'accept') return { status: 'accepted', value: true };
          return action === 'decline'
            ? { status: 'declined', message: 'La persona no quiso abrir la página.' }
            : { status: 'cancelled', message: 'La persona cerró la petición sin abrir la página.' };
        },
        async completeUrl(elicitationId) {
          if (!offers('url-elicitation')) return;
          await low
            .createElicitationCompletionNotifier(elicitationId, { relatedRequestId: scope.requestId })()
            .catch(() => {
              // The client is gone: nobody waits for the notice.
            });
        },
        async confirm(message) {
          const answer = await elicit(message, {
            type: 'object',
            properties: {
              [CONFIRM_FIELD]: {
                type: 'boolean',
                title: 'Confirmar',
                description: 'Marca para seguir adelante',
              },
            },
            required: [CONFIRM_FIELD],
          });
          if (answer.status !== 'accepted') return answer;
          return answer.value[CONFIRM_FIELD] === true
            ? { status: 'accepted', value: true }
            : { status: 'declined', message: 'La persona no confirmó.' };
        },
        async sample(request) {
          const refused = refusal('sampling', 'textos a su modelo');
          if (refused) return refused;
          const asked = await ask('la petición al modelo', () =>
            low.createMessage(
              {
                messages: [{ role: 'user', content: { type: 'text', text: request.prompt } }],
                ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
                maxTokens: request.maxTokens,
                includeContext: 'none',
              },
              options(),
            ),
          );
          if ('failed' in asked) return asked.failed;
          const result = asked.answer;
          const content = Array.isArray(result.content) ? result.content[0] : result.content;
          if (content?.type !== 'text') {
            return { status: 'cancelled', message: 'El modelo del cliente no devolvió texto.' };
          }
          return { status: 'accepted', value: { text: content.text, model: result.model } };
        },
        async roots() {
          const refused = refusal('roots', 'sus carpetas de trabajo');
          if (refused) return refused;
          if (!roots) {
            const asked = low.listRoots(undefined, options()).then((r) => r.roots);
            roots = asked;
            // A failed answer is not kept: the next call asks again.
            asked.catch(() => {
              if (roots === asked) roots = undefined;
            });
          }
          const pending = roots;
          const asked = await ask('la lista de carpetas', () => pending);
          return 'failed' in asked ? asked.failed : { status: 'accepted', value: asked.answer };
        },
      };
    },
  };
}

type Asked<T> = { answer: T } | { failed: Answer<never> };

function timedOut(what: string, ms: number): Answer<never> {
  return {
    status: 'timeout',
    message: `No llegó respuesta a ${what} en ${Math.max(0, Math.round(ms / 100) / 10)} s.`,
  };
}

/** The features of a client that offers none: for code that runs a handler outside a session (tests, scripts). */
export const NO_CLIENT_FEATURES: ClientFeatures = {
  clientOffers: () => false,
  confirm: async () => none('elicitation'),
  elicit: async () => none('elicitation'),
  openUrl: async () => none('url-elicitation'),
  completeUrl: async () => {},
  sample: async () => none('sampling'),
  roots: async () => none('roots'),
};

function none(feature: ClientFeature): Answer<never> {
  return { status: 'unavailable', message: `No hay cliente al que pedírselo (${METHODS[feature]}).` };
}
