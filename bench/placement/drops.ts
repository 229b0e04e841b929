/**
 * Lists the corpus lines whose runs would execute with a wrong or missing asked-for value and no unplaced report —
 * the silent drops the placement phase counts — with the request's words and what went wrong, grouped by kind.
 * `npx tsx bench/placement/drops.ts [--kind paraphrase] [--lang en]`: the working list for whoever closes them.
 */
import { loadCorpus } from './corpus.ts';
import { scoreCorpus } from './run.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** The user's words of a request, turns joined, attachments by name, so a line reads on its own. */
function wordsOf(request: Record<string, unknown>): string {
  const turns = ((request.conversation ?? request.messages) as { role?: string; content?: unknown }[] | undefined) ?? [];
  const text = [request.prompt, request.text, ...turns.map((turn) => `${turn.role ?? 'user'}: ${String(turn.content)}`)]
    .filter((part): part is string => typeof part === 'string' && part !== '');
  const files = ((request.attachments as { url?: string }[] | undefined) ?? []).map((file) => file.url ?? '?');
  return [...text, ...(files.length > 0 ? [`[files: ${files.join(', ')}]`] : [])].join(' | ');
}

const kind = option('kind');
const lang = option('lang');
const lines = loadCorpus().filter((line) => (kind === undefined || line.kind === kind) && (lang === undefined || line.lang === lang));
const scored = await scoreCorpus(lines);
const drops = scored.filter((entry) => entry.score.silentDrops > 0);
let total = 0;
for (const entry of drops.sort((a, b) => a.line.kind.localeCompare(b.line.kind) || a.line.id.localeCompare(b.line.id))) {
  total += entry.score.silentDrops;
  console.log(`${entry.line.id} (${entry.line.model}, ${entry.score.silentDrops} dropped)`);
  console.log(`  asked: ${wordsOf(entry.line.request as Record<string, unknown>).slice(0, 400)}`);
  for (const miss of entry.score.misses) console.log(`  - ${miss}`);
}
const asked = scored.reduce((sum, entry) => sum + entry.score.asked, 0);
console.log(`\n${total} silent drops of ${asked} asked values (${((100 * total) / Math.max(asked, 1)).toFixed(1)}%) on ${drops.length} of ${scored.length} lines`);
