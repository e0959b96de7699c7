/** Why a propagation was refused: each kind reaches the model with its own explanation. */
export type PropagationFailure =
  /** The instant is not a finite time. */
  | 'invalid-instant'
  /** SGP4 itself gave up (satrec.error). */
  | 'sgp4'
  /** The instant is further from the element-set epoch than the regime's bound (validity.ts). */
  | 'out-of-span'
  /** SGP4 answered, but with a state no orbit of this satellite can have. */
  | 'unphysical';

/**
 * The element set cannot give a position at that instant. The message is Spanish: the system passes it
 * to the model inside its 422 problem.
 */
export class PropagationError extends Error {
  override readonly name = 'PropagationError';
  readonly noradId: number;
  readonly atMs: number;
  readonly kind: PropagationFailure;
  /** SGP4 error code (satrec.error); 0 when SGP4 itself did not fail. */
  readonly code: number;
  /** For `out-of-span`: the instants the element set can be propagated to. */
  readonly validFromMs?: number;
  readonly validToMs?: number;

  constructor(
    noradId: number,
    atMs: number,
    kind: PropagationFailure,
    message: string,
    details: { code?: number; validFromMs?: number; validToMs?: number } = {},
  ) {
    super(message);
    this.noradId = noradId;
    this.atMs = atMs;
    this.kind = kind;
    this.code = details.code ?? 0;
    if (details.validFromMs !== undefined) this.validFromMs = details.validFromMs;
    if (details.validToMs !== undefined) this.validToMs = details.validToMs;
  }
}
