/** Gap-free delivery marks: an id is settled only once the transactions running just after its read have ended. */
import { describe, expect, it } from 'vitest';
import { settledMarks } from '../../api/settled-events.ts';

describe('settled marks', () => {
  it('holds a read back while a transaction running just after it is still running, then settles it', () => {
    const marks = settledMarks(5n);
    marks.saw(11n, { xmin: 100n, running: [100n] });
    expect(marks.settle({ xmin: 100n, running: [100n, 103n] })).toBe(5n);
    expect(marks.waiting()).toBe(true);
    expect(marks.settle({ xmin: 103n, running: [103n] })).toBe(11n);
    expect(marks.waiting()).toBe(false);
  });

  it('settles at once when nothing was running after the read, and never moves back', () => {
    const marks = settledMarks(5n);
    marks.saw(8n, { xmin: 50n, running: [] });
    expect(marks.settle({ xmin: 50n, running: [50n] })).toBe(8n);
    marks.saw(7n, { xmin: 50n, running: [] });
    expect(marks.waiting()).toBe(false);
    expect(marks.settle({ xmin: 60n, running: [] })).toBe(8n);
  });
});
