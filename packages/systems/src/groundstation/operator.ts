import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpProblem } from '../http/problem.js';
import type { Guard } from '../http/router.js';

/**
 * The check of an operator action: the body's `operator_token` against the system's credential, before
 * anything else of the request is parsed or revealed (an unknown station, a bad field, the token itself).
 * Without a configured credential every operator action is refused.
 */
export function operatorGuard(operatorToken: string | undefined, action: string): Guard {
  const expected = operatorToken ? digest(operatorToken) : undefined;
  return (request) => {
    const token = tokenOf(request.body);
    if (!expected || typeof token !== 'string' || !timingSafeEqual(digest(token), expected)) {
      throw new HttpProblem(
        403,
        'Forbidden',
        `${action} es una acción de operador y esta petición no trae una credencial de operador válida.`,
      );
    }
  };
}

function tokenOf(body: string | undefined): unknown {
  if (!body) return undefined;
  try {
    const raw: unknown = JSON.parse(body);
    return typeof raw === 'object' && raw !== null
      ? (raw as { operator_token?: unknown }).operator_token
      : undefined;
  } catch {
    return undefined;
  }
}

/** Equal-length digests, so comparing a token reveals neither its content nor its length. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
