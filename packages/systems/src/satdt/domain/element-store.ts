import type { Catalog, CatalogEntry } from './catalog.js';
import { epochMs } from './elements.js';

/** What one batch of element sets did to the catalog, by NORAD id. */
export interface ElementChange {
  /** Known satellites whose set was replaced by a newer one. */
  updated: number[];
  /** Satellites the catalog did not have. */
  added: number[];
  /** Sets older than the one the catalog holds: kept out, the newer set stays. */
  older: number[];
  /** Sets with the same epoch as the one held. */
  unchanged: number[];
}

/**
 * Epochs closer than this are the same set: a TLE states its epoch to 1e-8 day (0.864 ms), and
 * satellite.js reads an OMM epoch to the millisecond, so one set in both formats differs by less.
 */
const SAME_EPOCH_MS = 1;

export type ElementChangeListener = (change: ElementChange) => void;

/**
 * The twin's current catalog as one immutable map, replaced whole: a request that took `catalog` once
 * sees the old or the new catalog, never a mix of both.
 */
export class ElementStore {
  #catalog: Catalog;
  readonly #listeners = new Set<ElementChangeListener>();

  constructor(initial: Catalog) {
    this.#catalog = initial;
  }

  get catalog(): Catalog {
    return this.#catalog;
  }

  /**
   * Takes in checked sets. A known satellite keeps its name, COSPAR id and status (the shipped
   * metadata: a source's OBJECT_NAME varies in spelling) and gets the newer elements; a new NORAD id
   * enters with what its source says.
   */
  apply(entries: readonly CatalogEntry[]): ElementChange {
    const change: ElementChange = { updated: [], added: [], older: [], unchanged: [] };
    const next = new Map(this.#catalog);
    for (const entry of entries) {
      const held = next.get(entry.noradId);
      if (!held) {
        next.set(entry.noradId, entry);
        change.added.push(entry.noradId);
        continue;
      }
      const delta = epochMs(entry.satrec) - epochMs(held.satrec);
      if (Math.abs(delta) < SAME_EPOCH_MS) change.unchanged.push(entry.noradId);
      else if (delta < 0) change.older.push(entry.noradId);
      else {
        next.set(entry.noradId, { ...entry, name: held.name, cosparId: held.cosparId, status: held.status });
        change.updated.push(entry.noradId);
      }
    }
    if (change.updated.length > 0 || change.added.length > 0) {
      this.#catalog = next;
      for (const listener of this.#listeners) listener(change);
    }
    return change;
  }

  /** Runs after every change of the catalog; returns the unsubscribe. */
  onChange(listener: ElementChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
