import type { RestHandler } from '@code-cluster/shared';
import { satdtApi } from '@code-cluster/shared/satdt';
import { routes } from '../http/router.js';
import { isoUtc } from '../time.js';
import { CATALOG_TLE } from './catalog-data.js';
import { type Catalog, type ElementChangeListener, ElementStore, loadCatalog } from './domain/index.js';
import {
  type ElementsConfig,
  type ElementsLog,
  ElementsRefresher,
  type RefreshReport,
} from './elements-refresh.js';
import { satdtRoutes } from './routes.js';

export interface SatdtSystemOptions {
  /** TLE text of the catalog; the shipped CelesTrak set by default. */
  catalogTle?: string;
  /** Current element sets from a file and HTTP sources (see elements-refresh.ts); shipped ones only if unset. */
  elements?: ElementsConfig;
  /** The twin's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Where the element sources' outcomes go (stderr in the servers). */
  log?: ElementsLog;
}

export interface SatdtSystem {
  handler: RestHandler;
  /** The catalog as it is now (replaced whole on every change of the element sets). */
  readonly catalog: Catalog;
  /** Re-reads every element source; with none configured, an empty report. */
  refreshElements(): Promise<RefreshReport>;
  /** The refresh of the element URLs begun when the twin started (undefined without URLs). */
  readonly started: Promise<RefreshReport> | undefined;
  /** Runs after every change of the catalog's element sets. */
  onElementsChange(listener: ElementChangeListener): () => void;
  close(): void;
}

/** The satellite twin: its element store, served as the API of packages/shared/src/satdt/api.ts. */
export function createSatdtSystem(options: SatdtSystemOptions = {}): SatdtSystem {
  const store = new ElementStore(loadCatalog(options.catalogTle ?? CATALOG_TLE));
  const now = options.now ?? Date.now;
  const elements = options.elements ?? {};
  const refresher =
    elements.file || (elements.urls ?? []).length > 0
      ? new ElementsRefresher(store, elements, now, options.log ?? (() => {}))
      : undefined;
  const started = refresher?.start();
  const refreshElements = (): Promise<RefreshReport> =>
    refresher?.refresh() ??
    Promise.resolve({ at: isoUtc(now()), sources: [], satellites: store.catalog.size });

  return {
    handler: routes(satdtApi, satdtRoutes(store, now, refreshElements), options.onError),
    get catalog() {
      return store.catalog;
    },
    refreshElements,
    started,
    onElementsChange: (listener) => store.onChange(listener),
    close: () => refresher?.close(),
  };
}
