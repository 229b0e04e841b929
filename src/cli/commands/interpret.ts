/**
 * `vetted interpret --jsonl`: reply interpretation (layers 1 and 2) without a run, for checking how replies are
 * read. Reads JSON Lines (stdin, or --file), one `{text, expect, options?, source?, locale?, editableFields?}` per
 * line, checks every line first (a bad one is exit 2, naming the line and the field), then writes one
 * `{layer, decision, parsed?}` line per input line, in order. The LLM layer runs when OpenAI is configured.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import type { EditableField, ExpectedInput, ReplyOption, ReplyQuestion, ReviewSource } from '../../review/reply/types.ts';
import { action } from '../action.ts';
import { loadAdapters } from '../local-root.ts';

const EXPECTS: readonly ExpectedInput[] = ['yes_no', 'single_choice', 'multi_choice', 'free_text'];
const SOURCES: readonly ReviewSource[] = ['planner', 'disambiguation'];

interface InterpretLine {
  text: string;
  locale?: string;
  question: ReplyQuestion;
}

export function registerInterpretCommand(program: Command): void {
  program
    .command('interpret')
    .description('Read chat replies as review decisions (fast path, then the LLM when configured), one JSON line in, one out')
    .requiredOption('--jsonl', 'input and output are JSON Lines (the only format)')
    .option('--file <file>', 'read the lines from this file instead of stdin')
    .option('--trace', "also print what the LLM answered (the interpreter's trace)")
    .addHelpText('after', `
Input, one object per line:
  {"text": "yes, but 16:9", "expect": "yes_no" | "single_choice" | "multi_choice" | "free_text",
   "options": [{"id": "a", "label": "A"}], "source": "planner" | "disambiguation", "locale": "en",
   "editableFields": [{"name": "aspect_ratio", "schema": {"type": "string"}}]}
Output, one object per line, in order:
  {"layer": "fast_path" | "deterministic" | "interpreter" | "none", "decision": "continue" | "continue_with_modifications"
   | "switch_intent" | "cancel" | "re_ask", "parsed": {"approved", "selected", "answer", "modifications"}}
With no LLM configured (OPENAI_API_KEY or OPENAI_BASE_URL), a planner reply the fast path does not decide is
{"layer":"none","decision":"re_ask"}, and a disambiguation reply that names no option is
{"layer":"deterministic","decision":"switch_intent"}. Exit 2 names the first bad line and its field.`)
    .action(action(async (options: { file?: string; trace?: boolean }) => interpretLines(await readInput(options.file), options.trace === true)));
}

async function readInput(file: string | undefined): Promise<string> {
  if (file === undefined) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `--file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'file' });
  }
}

async function interpretLines(input: string, trace: boolean): Promise<void> {
  const lines = input.split(/\r?\n/).map((raw, index) => ({ raw, number: index + 1 })).filter((line) => line.raw.trim() !== '');
  const parsed = lines.map((line) => parseLine(line.raw, line.number));
  const [{ loadConfig }, { interpretReply }] = await Promise.all([
    import('../../config.ts'),
    import('../../review/reply/interpret.ts'),
  ]);
  const interpreter = (await loadAdapters(loadConfig())).replyInterpreter();
  for (const line of parsed) {
    const outcome = await interpretReply(line.text, line.question, { interpreter, locale: line.locale });
    const { interpreter: answer, ...shown } = outcome;
    process.stdout.write(`${JSON.stringify(trace && answer ? { ...shown, interpreter: answer } : shown)}\n`);
  }
}

function parseLine(raw: string, number: number): InterpretLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw bad(number, '(line)', `is not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value)) throw bad(number, '(line)', 'must be a JSON object');
  if (typeof value.text !== 'string') throw bad(number, 'text', 'must be a string');
  const expect = EXPECTS.find((e) => e === value.expect);
  if (!expect) throw bad(number, 'expect', `must be one of ${EXPECTS.join(', ')}`);
  const source = value.source === undefined ? 'planner' : SOURCES.find((s) => s === value.source);
  if (!source) throw bad(number, 'source', `must be one of ${SOURCES.join(', ')}`);
  if (value.locale !== undefined && (typeof value.locale !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(value.locale))) {
    throw bad(number, 'locale', 'must be a language tag such as en or pt-BR');
  }
  const options = optionsOf(value.options, number);
  if ((expect === 'single_choice' || expect === 'multi_choice') && options.length === 0) throw bad(number, 'options', `are needed for ${expect}`);
  return {
    text: value.text,
    ...(typeof value.locale === 'string' ? { locale: value.locale } : {}),
    question: { expectedInput: expect, source, question: '', options, editableFields: fieldsOf(value.editableFields, number) },
  };
}

function optionsOf(value: unknown, number: number): ReplyOption[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw bad(number, 'options', 'must be a list of {id, label}');
  return value.map((option, i) => {
    if (!isRecord(option) || typeof option.id !== 'string' || typeof option.label !== 'string') throw bad(number, `options[${i}]`, 'must be {id, label} with string values');
    return { id: option.id, label: option.label };
  });
}

function fieldsOf(value: unknown, number: number): EditableField[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw bad(number, 'editableFields', 'must be a list of {name, schema}');
  return value.map((field, i) => {
    if (!isRecord(field) || typeof field.name !== 'string' || !isRecord(field.schema)) throw bad(number, `editableFields[${i}]`, 'must be {name, schema} with a string name and an object schema');
    return { name: field.name, schema: field.schema };
  });
}

function bad(line: number, field: string, reason: string): VettedError {
  return new VettedError('INVALID_REQUEST', `line ${line}: ${field} ${reason}`, { field, details: { line } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
