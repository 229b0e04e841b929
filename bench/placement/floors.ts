/**
 * Floors for the placement figures: what main reaches, a little lower, so a change that makes placement worse
 * fails test/unit/placement-floor.test.ts. `tsx bench/placement/floors.ts --write` measures the corpus and
 * writes bench/placement/floors.json (raise the floors after a placement improvement lands, never lower them
 * to make a change pass).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figures, Report } from './score.ts';

/**
 * Percentage points below the measured figure (above it for silent drops): room for a line added or relabelled.
 * A small group moves by more than that when one of its requests changes, so its margin is one request's worth.
 */
export const MARGIN_POINTS = 2;
const marginFor = (lines: number, margin: number) => Math.max(margin, Math.ceil(100 / Math.max(lines, 1)));
export const FLOORS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floors.json');

/** Per figure, in whole percent: at least (recall, precision, ...) or at most (silentDropRate). */
export interface GroupFloors {
  recall?: number;
  settingsRecall?: number;
  precision?: number;
  exactRate?: number;
  /** A ceiling: silent drops per asked value may not exceed it. */
  silentDropRate?: number;
}
export interface Floors {
  overall: GroupFloors;
  byKind: Record<string, GroupFloors>;
  byLang: Record<string, GroupFloors>;
}

const AT_LEAST = ['recall', 'settingsRecall', 'precision', 'exactRate'] as const;

export function floorsOf(result: Report, margin = MARGIN_POINTS): Floors {
  const group = (figures: Figures): GroupFloors => {
    const floors: GroupFloors = {};
    const points = marginFor(figures.lines, margin);
    for (const key of AT_LEAST) {
      const value = figures[key];
      if (value !== null) floors[key] = Math.max(0, Math.floor(value * 100) - points);
    }
    if (figures.silentDropRate !== null) floors.silentDropRate = Math.min(100, Math.ceil(figures.silentDropRate * 100) + points);
    return floors;
  };
  const each = (groups: Record<string, Figures>) => Object.fromEntries(Object.entries(groups).map(([name, figures]) => [name, group(figures)]));
  return { overall: group(result.overall), byKind: each(result.byKind), byLang: each(result.byLang) };
}

/** Each figure below its floor (or silent drops above their ceiling), as "group figure: measured < floor". */
export function belowFloors(result: Report, floors: Floors): string[] {
  const check = (name: string, figures: Figures | undefined, group: GroupFloors): string[] => {
    if (figures === undefined) return [`${name}: no lines any more`];
    const out: string[] = [];
    for (const key of AT_LEAST) {
      const floor = group[key];
      const value = figures[key];
      if (floor !== undefined && (value === null || value * 100 < floor)) out.push(`${name} ${key}: ${value === null ? '—' : (value * 100).toFixed(1)}% < floor ${floor}%`);
    }
    const ceiling = group.silentDropRate;
    if (ceiling !== undefined && figures.silentDropRate !== null && figures.silentDropRate * 100 > ceiling) {
      out.push(`${name} silentDropRate: ${(figures.silentDropRate * 100).toFixed(1)}% > ceiling ${ceiling}%`);
    }
    return out;
  };
  return [
    ...check('overall', result.overall, floors.overall),
    ...Object.entries(floors.byKind).flatMap(([kind, group]) => check(`kind ${kind}`, result.byKind[kind], group)),
    ...Object.entries(floors.byLang).flatMap(([lang, group]) => check(`lang ${lang}`, result.byLang[lang], group)),
  ];
}

/** The higher of each floor (the lower of each ceiling): writing floors only ever raises them. */
export function raiseFloors(current: Floors, measured: Floors): Floors {
  const group = (old: GroupFloors = {}, next: GroupFloors): GroupFloors => {
    const out: GroupFloors = { ...next };
    for (const key of AT_LEAST) if (old[key] !== undefined && next[key] !== undefined) out[key] = Math.max(old[key], next[key]);
    if (old.silentDropRate !== undefined && next.silentDropRate !== undefined) out.silentDropRate = Math.min(old.silentDropRate, next.silentDropRate);
    return out;
  };
  const each = (old: Record<string, GroupFloors>, next: Record<string, GroupFloors>) =>
    Object.fromEntries(Object.entries(next).map(([name, floors]) => [name, group(old[name], floors)]));
  return { overall: group(current.overall, measured.overall), byKind: each(current.byKind, measured.byKind), byLang: each(current.byLang, measured.byLang) };
}

export function readFloors(file = FLOORS_FILE): Floors {
  return JSON.parse(readFileSync(file, 'utf8')) as Floors;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [{ loadCorpus }, { scoreCorpus }, { report, formatReport }] = await Promise.all([import('./corpus.ts'), import('./run.ts'), import('./score.ts')]);
  const result = report((await scoreCorpus(loadCorpus())).map((entry) => entry.score));
  console.log(formatReport(result).join('\n'));
  if (process.argv.includes('--write')) {
    const current = existsSync(FLOORS_FILE) ? readFloors() : floorsOf(result);
    writeFileSync(FLOORS_FILE, `${JSON.stringify(raiseFloors(current, floorsOf(result)), null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), FLOORS_FILE)}`);
  } else {
    const below = belowFloors(result, readFloors());
    console.log(below.length === 0 ? 'every figure at or above its floor' : below.join('\n'));
  }
}
