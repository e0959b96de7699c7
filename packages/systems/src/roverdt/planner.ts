import { inMap, slopeDeg, type Terrain } from './terrain.js';

/** How much a slope costs on top of distance: at the limit a metre costs 1 + SLOPE_WEIGHT metres. */
export const SLOPE_WEIGHT = 2;
/** A route is cut into legs of at most this many moves (~8–11 m): the unit of progress and of stopping. */
export const LEG_MOVES = 8;

const NEIGHBOURS: ReadonlyArray<readonly [number, number, number]> = [
  [1, 0, 1],
  [-1, 0, 1],
  [0, 1, 1],
  [0, -1, 1],
  [1, 1, Math.SQRT2],
  [1, -1, Math.SQRT2],
  [-1, 1, Math.SQRT2],
  [-1, -1, Math.SQRT2],
];

export interface PlanLimits {
  maxSlopeDeg: number;
  /** Cells the rover must not enter besides rocks (soft sand it has found). */
  avoid?: ReadonlySet<number>;
}

/** Cost of one move: its length plus a penalty growing with the square of its slope. */
export function moveCost(t: Terrain, from: number, to: number, length: number, limits: PlanLimits): number {
  const slope = slopeDeg(t, from, to) / limits.maxSlopeDeg;
  return length * t.cellSizeM * (1 + SLOPE_WEIGHT * slope * slope);
}

/** Where the rover may stand: on the map, not a rock, not sand it knows about. */
export function passable(t: Terrain, i: number, limits: PlanLimits): boolean {
  return t.obstacle[i] === 0 && !limits.avoid?.has(i);
}

/**
 * A* over the 8-connected grid: the cheapest path (by `moveCost`) whose every move stays within the slope
 * limit, as cell indices from start to goal; undefined when none exists. The octile distance is an
 * admissible heuristic because every move costs at least its length, so the path found is optimal.
 */
export function findPath(t: Terrain, start: number, goal: number, limits: PlanLimits): number[] | undefined {
  const n = t.width * t.height;
  const g = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const cameFrom = new Int32Array(n).fill(-1);
  const closed = new Uint8Array(n);
  const gx = goal % t.width;
  const gy = Math.floor(goal / t.width);
  const heuristic = (i: number) => {
    const dx = Math.abs((i % t.width) - gx);
    const dy = Math.abs(Math.floor(i / t.width) - gy);
    return (Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy)) * t.cellSizeM;
  };
  const open = new MinHeap();
  g[start] = 0;
  open.push(start, heuristic(start));
  while (open.size > 0) {
    const current = open.pop();
    if (current === goal) return walkBack(cameFrom, goal);
    if (closed[current]) continue;
    closed[current] = 1;
    const x = current % t.width;
    const y = Math.floor(current / t.width);
    for (const [dx, dy, length] of NEIGHBOURS) {
      if (!inMap(t, x + dx, y + dy)) continue;
      const next = (y + dy) * t.width + x + dx;
      if (closed[next] || !passable(t, next, limits)) continue;
      if (slopeDeg(t, current, next) > limits.maxSlopeDeg) continue;
      const cost = g[current]! + moveCost(t, current, next, length, limits);
      if (cost < g[next]!) {
        g[next] = cost;
        cameFrom[next] = current;
        open.push(next, cost + heuristic(next));
      }
    }
  }
  return undefined;
}

function walkBack(cameFrom: Int32Array, goal: number): number[] {
  const path = [goal];
  for (let at = cameFrom[goal]!; at !== -1; at = cameFrom[at]!) path.push(at);
  return path.reverse();
}

export type Unreachable =
  /** Rocks (or known sand) close the destination off, whatever the slope. */
  | { kind: 'obstaculos' }
  /** There are ways around the rocks, but the least steep of them needs `neededSlopeDeg`. */
  | { kind: 'pendiente'; neededSlopeDeg: number };

/**
 * Why no path exists. With no slope limit at all, a destination still out of reach is walled in by rocks;
 * otherwise a minimax search finds the gentlest possible way there, whose steepest move is the slope the
 * rover would need.
 */
export function explainUnreachable(t: Terrain, start: number, goal: number, limits: PlanLimits): Unreachable {
  const n = t.width * t.height;
  const worst = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const closed = new Uint8Array(n);
  const open = new MinHeap();
  worst[start] = 0;
  open.push(start, 0);
  while (open.size > 0) {
    const current = open.pop();
    if (closed[current]) continue;
    if (current === goal) return { kind: 'pendiente', neededSlopeDeg: worst[goal]! };
    closed[current] = 1;
    const x = current % t.width;
    const y = Math.floor(current / t.width);
    for (const [dx, dy] of NEIGHBOURS) {
      if (!inMap(t, x + dx, y + dy)) continue;
      const next = (y + dy) * t.width + x + dx;
      if (closed[next] || !passable(t, next, limits)) continue;
      const steepest = Math.max(worst[current]!, slopeDeg(t, current, next));
      if (steepest < worst[next]!) {
        worst[next] = steepest;
        open.push(next, steepest);
      }
    }
  }
  return { kind: 'obstaculos' };
}

export interface PlannedLeg {
  /** Cells from the leg's start (exclusive) to its end (inclusive). */
  cells: number[];
  from: number;
  to: number;
  distanceM: number;
  climbM: number;
  maxSlopeDeg: number;
}

/** Cuts a path into legs of at most LEG_MOVES moves, measuring each. */
export function cutIntoLegs(t: Terrain, path: readonly number[]): PlannedLeg[] {
  const legs: PlannedLeg[] = [];
  for (let start = 0; start < path.length - 1; start += LEG_MOVES) {
    const end = Math.min(start + LEG_MOVES, path.length - 1);
    const leg: PlannedLeg = {
      cells: path.slice(start + 1, end + 1),
      from: path[start]!,
      to: path[end]!,
      distanceM: 0,
      climbM: 0,
      maxSlopeDeg: 0,
    };
    for (let k = start; k < end; k++) {
      const a = path[k]!;
      const b = path[k + 1]!;
      leg.distanceM += moveLength(t, a, b);
      leg.climbM += Math.max(0, t.elevation[b]! - t.elevation[a]!);
      leg.maxSlopeDeg = Math.max(leg.maxSlopeDeg, slopeDeg(t, a, b));
    }
    legs.push(leg);
  }
  return legs;
}

/** Metres between two neighbouring cells (1 or √2 cells). */
export function moveLength(t: Terrain, a: number, b: number): number {
  const diagonal = a % t.width !== b % t.width && Math.floor(a / t.width) !== Math.floor(b / t.width);
  return (diagonal ? Math.SQRT2 : 1) * t.cellSizeM;
}

/** A binary min-heap of cell indices by priority, with lazy deletion (stale entries are skipped by callers). */
class MinHeap {
  private items: number[] = [];
  private priorities: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: number, priority: number): void {
    const items = this.items;
    const prio = this.priorities;
    let i = items.length;
    items.push(item);
    prio.push(priority);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (prio[parent]! <= priority) break;
      items[i] = items[parent]!;
      prio[i] = prio[parent]!;
      i = parent;
    }
    items[i] = item;
    prio[i] = priority;
  }

  pop(): number {
    const items = this.items;
    const prio = this.priorities;
    const top = items[0]!;
    const lastItem = items.pop()!;
    const lastPrio = prio.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && prio[right]! < prio[left]! ? right : left;
        if (prio[child]! >= lastPrio) break;
        items[i] = items[child]!;
        prio[i] = prio[child]!;
        i = child;
      }
      items[i] = lastItem;
      prio[i] = lastPrio;
    }
    return top;
  }
}
