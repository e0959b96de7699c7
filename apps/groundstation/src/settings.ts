import { databaseOptions, systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import { SCOPES } from './deps.js';

/**
 * groundstation-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('GROUNDSTATION', 'ground station system'),
  ...databaseOptions('GROUNDSTATION'),
  scope: {
    flag: 'scope',
    env: 'GROUNDSTATION_SCOPE',
    schema: z.enum(SCOPES).default('consulta'),
    description:
      "'consulta' (default: stations, health, bookings) or 'operador' (also programs and cancels maintenance)",
  },
  operatorToken: {
    flag: 'operator-token',
    env: 'GROUNDSTATION_OPERATOR_TOKEN',
    schema: z.string().min(1).optional(),
    description:
      "the operator credential: this server's for the remote system (with --scope operador), and the one a person types to elevate a session (solicitar_acceso_operador, URL-mode elicitation)",
  },
  elevation: {
    flag: 'elevation',
    env: 'GROUNDSTATION_ELEVATION',
    schema: z.enum(['off', 'confirm']).default('off'),
    description:
      "'confirm': a client with form-mode elicitation only may elevate a session with a yes/no; 'off' (default): only the credential on a one-time page (URL mode) elevates",
  },
};
