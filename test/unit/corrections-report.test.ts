import { describe, expect, it } from 'vitest';
import { correctionsReport, MAX_CHANGES_PER_FIELD, weekOf, type CorrectionSource } from '../../src/reports/corrections.ts';

const NOW = new Date('2026-11-26T12:00:00Z');
const window = { since: new Date('2026-09-01T00:00:00Z'), until: NOW, model: null, now: NOW };
const NONE = new Set<string>();

function decision(edits: Record<string, unknown> | null, extra: Partial<CorrectionSource> = {}): CorrectionSource {
  return { at: new Date('2026-11-25T10:00:00Z'), model: 'owner/a', edits, before: { size: 'S', prompt: 'a cat' }, issues: [], secretFields: NONE, ...extra };
}

describe('the corrections report', () => {
  it('counts decisions, corrected decisions and edits per field, most corrected model and field first', () => {
    const report = correctionsReport([
      decision({ size: 'L' }), decision({ size: 'L', steps: 30 }), decision(null),
      decision({ size: 'M' }, { model: 'owner/b' }),
    ], window);
    expect(report).toMatchObject({ decisions: 4, corrected: 3 });
    expect(report.models.map((m) => [m.model, m.decisions, m.corrected])).toEqual([['owner/a', 3, 2], ['owner/b', 1, 1]]);
    const size = report.models[0]!.fields[0]!;
    expect(size).toMatchObject({ field: 'size', edits: 2, share: 0.6667, kind: 'value', changes: [{ from: 'S', to: 'L', count: 2 }] });
    // A field the builder left unset has no `from`.
    expect(report.models[0]!.fields[1]!.changes).toEqual([{ to: 30, count: 1 }]);
  });

  it('keeps the ten most frequent changes of a field', () => {
    const many = Array.from({ length: 15 }, (_, i) => Array.from({ length: i + 1 }, () => decision({ size: `v${i}` }))).flat();
    const changes = correctionsReport(many, window).models[0]!.fields[0]!.changes;
    expect(changes).toHaveLength(MAX_CHANGES_PER_FIELD);
    expect(changes[0]).toEqual({ from: 'S', to: 'v14', count: 15 });
  });

  it('groups free text by what happened to it and never quotes it', () => {
    const long = 'a very long prompt that a reviewer rewrote entirely by hand';
    const report = correctionsReport([decision({ prompt: long }), decision({ prompt: '' }, { before: { prompt: long } }), decision({ prompt: long }, { before: {} })], window);
    const prompt = report.models[0]!.fields[0]!;
    expect(prompt.kind).toBe('free_text');
    expect(prompt.changes).toEqual([{ change: 'cleared', count: 1 }, { change: 'rewritten', count: 1 }, { change: 'set', count: 1 }]);
    expect(JSON.stringify(report)).not.toContain('reviewer rewrote');
  });

  it('counts secret inputs (by the schema’s role or a secret-looking name) without their values', () => {
    const report = correctionsReport([
      decision({ studio_pass: 'hunter2-secret' }, { secretFields: new Set(['studio_pass']), before: { studio_pass: 'old-secret' } }),
      decision({ hf_token: 'hf_abcdef' }),
    ], window);
    expect(report.models[0]!.fields.map((f) => [f.field, f.kind])).toEqual([['hf_token', 'secret'], ['studio_pass', 'secret']]);
    expect(JSON.stringify(report)).not.toMatch(/hunter2|old-secret|hf_abcdef/);
  });

  it('names the issue codes the review showed on the edited field only', () => {
    const issues = [{ path: '/size', code: 'not_in_request' }, { path: '/size/0', code: 'too_big' }, { path: '/prompt', code: 'empty' }, { path: '', code: 'whole' }];
    const size = correctionsReport([decision({ size: 'L' }, { issues }), decision({ size: 'L' }, { issues: issues.slice(0, 1) })], window).models[0]!.fields[0]!;
    expect(size.issueCodes).toEqual([{ code: 'not_in_request', count: 2 }, { code: 'too_big', count: 1 }]);
  });

  it('counts per week from Monday (UTC), oldest first, for the model and the field', () => {
    const at = (iso: string) => new Date(iso);
    const report = correctionsReport([
      decision({ size: 'L' }, { at: at('2026-11-23T00:00:00Z') }), // Monday
      decision(null, { at: at('2026-11-29T23:59:59Z') }), // Sunday, same week
      decision({ size: 'L' }, { at: at('2026-11-22T23:59:59Z') }), // Sunday before
    ], window);
    expect(report.models[0]!.weeks).toEqual([{ week: '2026-11-16', count: 1, decisions: 1 }, { week: '2026-11-23', count: 1, decisions: 2 }]);
    expect(report.models[0]!.fields[0]!.weeks).toEqual([{ week: '2026-11-16', count: 1 }, { week: '2026-11-23', count: 1 }]);
    expect(weekOf(at('2026-01-01T05:00:00Z'))).toBe('2025-12-29');
  });
});
