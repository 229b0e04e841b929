/** Leak statistics and how they are printed: rates, CSV, the text table, the offline HTML page, --since. */
import { describe, expect, it } from 'vitest';
import { renderShadowHtml } from '../../src/shadow/html-report.ts';
import { formatSummaryCsv, formatSummaryTable } from '../../src/shadow/report-format.ts';
import { parseSince, parseWindows } from '../../src/shadow/since.ts';
import { summarizeComparisons } from '../../src/shadow/summary.ts';
import type { LeakFinding, ShadowComparison } from '../../src/shadow/types.ts';

const since = new Date('2026-01-01T00:00:00Z');

function comparison(leaks: Partial<LeakFinding>[], overrides: Partial<ShadowComparison> = {}): ShadowComparison {
  const full = leaks.map((l) => ({ path: '/prompt', value: 'x', examplePath: '/prompt', exampleValue: 'x', match: 'exact' as const, ...l }));
  return {
    status: 'ok', failureReason: null, v2Payload: {}, v3Payload: {}, diff: [], leaks: full, v3Leaks: [],
    leakedFields: [...new Set(full.map((l) => l.path.split('/')[1] ?? ''))].sort(), fieldsDiffering: full.length, ...overrides,
  };
}

const hostile = '<script>alert("x")</script>, "quoted"';
const entries = [
  { model: 'acme/img:v1', comparison: comparison([{ path: '/prompt', exampleValue: hostile }, { path: '/seed', exampleValue: 4242, match: 'number' }]) },
  { model: 'acme/img:v2', comparison: comparison([{ path: '/seed', exampleValue: 4242, match: 'number' }]) },
  { model: 'acme/img', comparison: comparison([]) },
  { model: 'acme/img', comparison: comparison([], { status: 'failed', failureReason: 'boom' }) },
  { model: 'acme/txt', comparison: comparison([]) },
];
const summary = summarizeComparisons(entries, since);

describe('summarizeComparisons', () => {
  it('groups versions under owner/name, leaves failures out of the rate, and puts the worst field first', () => {
    expect(summary.models).toEqual([
      { model: 'acme/img', reports: 4, failed: 1, withLeaks: 2, leakRate: 0.6667, v2Leaks: 3, v3Leaks: 0, fieldsDiffering: 3 },
      { model: 'acme/txt', reports: 1, failed: 0, withLeaks: 0, leakRate: 0, v2Leaks: 0, v3Leaks: 0, fieldsDiffering: 0 },
    ]);
    expect(summary.totals).toMatchObject({ reports: 5, failed: 1, withLeaks: 2, leakRate: 0.5 });
    expect(summary.fields.map((f) => [f.field, f.leaked, f.reports, f.leakRate])).toEqual([['seed', 2, 3, 0.6667], ['prompt', 1, 3, 0.3333]]);
  });
});

describe('formats', () => {
  it('CSV has a * row per model and a row per leaking field, quoted where needed', () => {
    const lines = formatSummaryCsv(summary).trimEnd().split('\r\n');
    expect(lines[0]).toBe('model,field,runs,failed,leaking_runs,leak_rate,v2_leaks,v3_leaks,fields_differing,matches,example_value');
    expect(lines[1]).toBe('acme/img,*,4,1,2,0.6667,3,0,3,,');
    expect(lines).toContain('acme/img,prompt,3,,1,0.3333,,,,exact,"<script>alert(""x"")</script>, ""quoted"""');
    expect(lines.at(-1)).toBe('acme/txt,*,1,0,0,0,0,0,0,,');
  });

  it('the table aligns columns and warns when V3 leaked', () => {
    const text = formatSummaryTable(summary);
    expect(text).toContain('acme/img');
    expect(text).toMatch(/total\s+5\s+1\s+2\s+50\.0%/);
    expect(text).not.toContain('WARNING');
    const broken = summarizeComparisons([{ model: 'acme/img', comparison: comparison([], { v3Leaks: [{ path: '/a', value: 1, examplePath: '/a', exampleValue: 1, match: 'number' }] }) }], since);
    expect(formatSummaryTable(broken)).toContain('WARNING: 1 example value(s) found in V3 payloads');
  });

  it('the HTML page is self-contained (no scripts, links or remote resources) and escapes example values', () => {
    const html = renderShadowHtml(summary, { generatedAt: since, tenant: 't1' });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg role="img"');
    expect(html).not.toMatch(/<script|<link|src=|href=|url\(|@import|https?:/i);
    expect(html).toContain('&lt;script&gt;alert(');
    expect(html).toContain('V3 leaked nothing');
    expect(html).toContain('66.7%');
  });
});

describe('--since and windows', () => {
  const now = new Date('2026-02-01T00:00:00Z');

  it('reads look-backs and dates, and names the field otherwise', () => {
    expect(parseSince('24h', now).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(parseSince('2w', now).toISOString()).toBe('2026-01-18T00:00:00.000Z');
    expect(parseSince('2026-01-15', now).toISOString()).toBe('2026-01-15T00:00:00.000Z');
    expect(() => parseSince('yesterday', now)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', field: 'since' }));
  });

  it('parses a window list and refuses a bad one', () => {
    expect(parseWindows('1h,24h,7d').map((w) => w.ms)).toEqual([3_600_000, 86_400_000, 604_800_000]);
    expect(() => parseWindows('1h,0d')).toThrow(expect.objectContaining({ field: 'windows' }));
    expect(() => parseWindows('1h,2h,3h,4h,5h,6h,7h')).toThrow(/1 to 6/);
  });

  it('refuses a look-back so long it would start before any date PostgreSQL takes', () => {
    expect(() => parseWindows('999999w')).toThrow(/more than 20 years/);
    expect(() => parseSince('999999w', now)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', field: 'since' }));
    expect(parseWindows('999w')[0]!.ms).toBe(999 * 604_800_000);
  });
});
