/**
 * The labelled placement corpus: one request per line in bench/placement/corpus/*.jsonl, each with what a careful
 * person would put in the payload. Reading it is kept apart from scoring so the checker test, the floor test and
 * the bench phase all read the same lines the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const KINDS = ['explicit', 'paraphrase', 'language', 'conversation', 'attachment', 'trap'] as const;
export const LANGS = ['en', 'es', 'fr', 'de', 'pt', 'he', 'ru', 'ar', 'ja'] as const;
export type Kind = (typeof KINDS)[number];
export type Lang = (typeof LANGS)[number];

/** How one expected field is judged against the payload. */
export type Matcher =
  | string
  | number
  | boolean
  | { oneOf: unknown[] }
  | { contains: string[]; excludes?: string[] }
  | { absent: true }
  | { file: string };

export interface CorpusLine {
  id: string;
  kind: Kind;
  lang: Lang;
  /** owner/name of a public catalog model. */
  model: string;
  /** A generation request body (prompt, conversation, attachments). */
  request: Record<string, unknown>;
  expect: Record<string, Matcher>;
  note?: string;
  /** Where the line came from: file:line, for error messages. */
  source: string;
}

export const CORPUS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');

/** Every line of every corpus file, in file then line order. Throws naming file:line on a line that is not JSON. */
export function loadCorpus(dir: string = CORPUS_DIR): CorpusLine[] {
  const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort();
  return files.flatMap((file) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        if (text.trim() === '') return [];
        const source = `${file}:${index + 1}`;
        try {
          return [{ ...(JSON.parse(text) as Omit<CorpusLine, 'source'>), source }];
        } catch (error) {
          throw new Error(`${source}: not JSON (${error instanceof Error ? error.message : String(error)})`);
        }
      }),
  );
}
