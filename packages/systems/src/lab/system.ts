import { dirname, join } from 'node:path';
import type { RestHandler } from '@code-cluster/shared';
import { labApi } from '@code-cluster/shared/lab';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Grader } from './grader.js';
import { embeddedRoster, remoteRoster, type StudentRoster } from './roster.js';
import { labRoutes } from './routes.js';
import { GradingSandbox } from './sandbox.js';
import { Sessions } from './sessions.js';
import { LabStore } from './store.js';

export interface LabSystemOptions {
  /** SQLite file of sessions and submissions; `lab.db` under the cluster's data dir by default. */
  file?: string;
  /** Pause between two rules while grading, ms: lets a client watch the progress (demos, tests). */
  stepDelayMs?: number;
  /**
   * Wall-clock budget of one grading, ms (pauses of `stepDelayMs` excluded): past it the grading stops
   * and the submission is `no_terminada`. Default 10 000.
   */
  gradingBudgetMs?: number;
  /**
   * Base URL (and token) of the academy system whose roster owns student ids. Unset: the academy of the
   * same data dir, read in process (its `academy.db`, else its reference roster).
   */
  academyApiUrl?: string | undefined;
  academyApiToken?: string | undefined;
  /** The roster itself, instead of one built from the settings above. */
  roster?: StudentRoster;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface LabSystem {
  handler: RestHandler;
  store: LabStore;
  /** Resolves when every grading queued so far has finished. */
  idle(): Promise<void>;
  close(): void;
}

const DEFAULT_GRADING_BUDGET_MS = 10_000;

/** The lab suite: its SQLite store and background grader, served as the API of packages/shared/src/lab/api.ts. */
export function createLabSystem(options: LabSystemOptions = {}): LabSystem {
  const file = options.file ?? dataFile('lab.db');
  const store = new LabStore(file);
  const roster =
    options.roster ??
    (options.academyApiUrl
      ? remoteRoster({ baseUrl: options.academyApiUrl, token: options.academyApiToken })
      : // The academy system keeps `academy.db` in the same data dir.
        embeddedRoster(join(dirname(file), 'academy.db')));
  const now = options.now ?? Date.now;
  const sandbox = new GradingSandbox();
  const grader = new Grader(store, sandbox, {
    now,
    stepDelayMs: options.stepDelayMs ?? 0,
    budgetMs: options.gradingBudgetMs ?? DEFAULT_GRADING_BUDGET_MS,
    onError: options.onError,
  });
  grader.resume();
  const sessions = new Sessions(store, roster, grader, now);
  return {
    handler: routes(labApi, labRoutes(sessions), options.onError),
    store,
    idle: () => grader.idle(),
    close: () => {
      grader.close();
      sandbox.close();
      void roster.close?.();
      store.close();
    },
  };
}
