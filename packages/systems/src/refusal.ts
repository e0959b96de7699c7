/**
 * Why a use case declines a request, in words the model can act on (Spanish). Use cases know nothing of
 * HTTP: the router (http/routes.ts) turns each kind into its status, the same for every system.
 */
export type RefusalKind =
  /** The input breaks a rule the schema cannot say (a forged cursor): 400. */
  | 'invalid'
  /** What the request names does not exist: 404. */
  | 'not_found'
  /** It contradicts what is stored (an idempotency key reused for another event): 409. */
  | 'conflict'
  /** Well formed, yet the domain cannot act on it (an empty submission, an unknown answer option): 422. */
  | 'unprocessable'
  /** Over a size limit the schema cannot measure (UTF-8 bytes): 413. */
  | 'too_large'
  /** The engine behind the system cannot be reached now (NATS down): 503, and the client retries. */
  | 'unavailable';

export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** Extra members of the problem details, for clients that read more than the words. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const refuse = {
  invalid: (message: string, details?: Record<string, unknown>) => new Refusal('invalid', message, details),
  notFound: (message: string, details?: Record<string, unknown>) =>
    new Refusal('not_found', message, details),
  conflict: (message: string, details?: Record<string, unknown>) => new Refusal('conflict', message, details),
  unprocessable: (message: string, details?: Record<string, unknown>) =>
    new Refusal('unprocessable', message, details),
  tooLarge: (message: string, details?: Record<string, unknown>) =>
    new Refusal('too_large', message, details),
  unavailable: (message: string, details?: Record<string, unknown>) =>
    new Refusal('unavailable', message, details),
};
