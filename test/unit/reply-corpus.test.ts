/**
 * The reply corpus (test/fixtures/reply-corpus.jsonl): every line is a reply, the question's expected input, and
 * the outcome it must get. Hundreds of replies in the eight languages, with many the fast path must NOT decide.
 * A stub interpreter answers re_ask and counts its calls: the fast path must decide its lines with none.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { interpretReply } from '../../src/review/reply/interpret.ts';
import type { ExpectedInput, ReplyInterpreter, ReplyOption, ReplyOutcome, ReviewSource } from '../../src/review/reply/types.ts';

interface CorpusLine {
  text: string;
  expect: ExpectedInput;
  options?: ReplyOption[];
  source?: ReviewSource;
  outcome: Omit<ReplyOutcome, 'interpreter'>;
  note?: string;
}

const corpus = readFileSync(new URL('../fixtures/reply-corpus.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as CorpusLine);

function countingInterpreter(): ReplyInterpreter & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async interpret(input) {
      calls.push(input.text);
      return { ok: true, decision: 're_ask' };
    },
  };
}

describe('the reply corpus', () => {
  it('holds at least 300 replies across the eight languages, many of which the fast path must not decide', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(corpus.filter((line) => line.outcome.layer !== 'fast_path').length).toBeGreaterThanOrEqual(90);
    for (const script of [/\p{Script=Hebrew}/u, /\p{Script=Arabic}/u, /\p{Script=Cyrillic}/u, /[áéíóúñ]/, /[àâçéèêëîïôûùüÿœ]/, /[äöüß]/, /[ãõç]/]) {
      expect(corpus.some((line) => script.test(line.text)), String(script)).toBe(true);
    }
  });

  it.each(corpus.map((line, i) => [i + 1, line] as const))('line %i', async (_n, line) => {
    const interpreter = countingInterpreter();
    const question = { expectedInput: line.expect, source: line.source ?? 'planner', question: 'q', options: line.options ?? [], editableFields: [] };
    const { interpreter: trace, ...outcome } = await interpretReply(line.text, question, { interpreter });
    expect(outcome, `${JSON.stringify(line.text)} ${line.note ?? ''}`).toEqual(line.outcome);
    // The fast path and the deterministic rule never call the LLM; an undecided planner reply calls it once.
    expect(interpreter.calls).toHaveLength(line.outcome.layer === 'interpreter' ? 1 : 0);
    if (line.outcome.layer === 'interpreter') expect(trace).toEqual({ answer: { decision: 're_ask', parsed: undefined } });
  });
});
