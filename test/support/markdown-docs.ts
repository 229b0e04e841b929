/**
 * Reading the repository's Markdown the way a newcomer would run it: every `vetted …` command, every `npm run …`
 * script, every path and every relative link in it, so a test can hold the docs to the code they describe.
 * The CLI is checked against the commander program itself, built as src/cli/main.ts builds it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';

/** The repository root (this file is test/support/markdown-docs.ts). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'test-results', 'coverage', 'seeds']);

/** Every Markdown file people read: README.md, docs/, bench/, chaos/, clients/, examples/ … (not node_modules). */
export function markdownFiles(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...markdownFiles(path.join(dir, entry.name)));
    } else if (entry.name.endsWith('.md')) {
      found.push(path.join(dir, entry.name));
    }
  }
  return found.sort();
}

/** The Markdown with its fenced blocks and inline code removed: what is left is prose and links. */
export function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * The code a reader may copy: each fenced block (shell line continuations joined) and each inline code span
 * outside them, with table-escaped pipes (`\|`) read as pipes.
 */
export function codeSnippets(markdown: string): string[] {
  const snippets: string[] = [];
  const outside = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```[^\n]*$/gm, (_block, body: string) => {
    snippets.push(...body.replace(/\\\n\s*/g, ' ').split('\n'));
    return '';
  });
  // An inline span may wrap onto the next line, never across a paragraph.
  for (const match of outside.matchAll(/`((?:[^`\n]|\n(?!\n))+)`/g)) snippets.push(match[1]!.replace(/\n/g, ' '));
  return snippets.map((snippet) => snippet.replace(/\\\|/g, '|'));
}

/** Each `vetted …` invocation in a snippet, from the command word to the end of that shell command. */
export function vettedInvocations(snippet: string): string[] {
  const found: string[] = [];
  // A command starts a snippet or a shell command, or follows `npx`: `--only vetted` or `vetted-extract` is no command.
  for (const match of snippet.matchAll(/(?<=^|^\$\s+|\bnpx\s+|[;&|(`]\s*)vetted\s+(?=[a-z-])/g)) {
    const rest = snippet.slice(match.index + match[0].length);
    // A shell command ends at an operator, a redirection, a comment or the end of a command substitution.
    const end = rest.search(/\s(?:&&|\|\||;|\||>|2>|#)(?:\s|$)|[)`]|,\s|\s\/\s/);
    found.push((end === -1 ? rest : rest.slice(0, end)).trim().replace(/\s+/g, ' '));
  }
  return found;
}

/** Builds the `vetted` program exactly as src/cli/main.ts does: the same register calls, in order, run nothing. */
export async function buildCliProgram(): Promise<Command> {
  const main = readFileSync(path.join(ROOT, 'src/cli/main.ts'), 'utf8');
  const modules = new Map<string, string>();
  for (const match of main.matchAll(/import \{ (register\w+) \} from '(\.[^']+)';/g)) modules.set(match[1]!, match[2]!);
  const calls = [...main.matchAll(/^(register\w+)\(program\);$/gm)].map((match) => match[1]!);
  if (calls.length === 0) throw new Error('src/cli/main.ts registers no commands the way this reader expects: update buildCliProgram');
  const program = new Command('vetted').exitOverride().enablePositionalOptions();
  for (const name of calls) {
    const from = modules.get(name);
    if (!from) throw new Error(`src/cli/main.ts calls ${name} but imports it from nowhere this reader can see`);
    const module = (await import(path.join(ROOT, 'src/cli', from))) as Record<string, (program: Command) => void>;
    module[name]!(program);
  }
  program.version('0.1.0');
  return program;
}

/** What is wrong with one invocation (the text after `vetted`) against the program: nothing when it runs. */
export function commandProblems(program: Command, invocation: string): string[] {
  const problems: string[] = [];
  const tokens = invocation
    .replace(/"[^"]*"|'[^']*'/g, ' VALUE ')
    .replace(/[[\]]/g, ' ')
    .replace(/\|/g, ' | ')
    .split(/\s+/)
    .filter(Boolean);
  const pathOf = [program];
  let expectsValue = false;
  let afterAlternative = false;
  // `shadow enable|settings` offers commands; `--format table|json` offers values. Only the first must name commands.
  let lastWasCommand = false;
  let alternativeOfCommands = false;
  for (const token of tokens) {
    const current = pathOf.at(-1)!;
    const name = pathOf.map((command) => command.name()).join(' ');
    if (token === '|') {
      afterAlternative = true;
      alternativeOfCommands = lastWasCommand;
      expectsValue = false;
      continue;
    }
    lastWasCommand = false;
    if (/^--?[a-zA-Z]/.test(token)) {
      const flag = token.split('=')[0]!;
      const option = current.options.find((candidate) => candidate.long === flag || candidate.short === flag);
      if (!option && !['--help', '-h'].includes(flag)) problems.push(`\`${name}\` has no option ${flag}`);
      expectsValue = Boolean(option && (option.required || option.optional) && !token.includes('='));
      afterAlternative = false;
      continue;
    }
    const isWord = /^[a-z][a-z-]*$/.test(token);
    const sub = isWord ? subcommand(current, token) : undefined;
    const sibling = isWord && afterAlternative && pathOf.length > 1 ? subcommand(pathOf.at(-2)!, token) : undefined;
    if (sub && !expectsValue) pathOf.push(sub);
    else if (sibling) pathOf[pathOf.length - 1] = sibling;
    else if (afterAlternative && alternativeOfCommands) {
      return [...problems, `\`${pathOf.slice(0, -1).map((command) => command.name()).join(' ')}\` has no command ${token}`];
    } else if (isWord && !expectsValue && current.commands.length > 0 && current.registeredArguments.length === 0) {
      // What follows an unknown command cannot be checked: its options are no known command's.
      return [...problems, `\`${name}\` has no command ${token}`];
    }
    lastWasCommand = Boolean((sub && !expectsValue) || sibling);
    expectsValue = false;
    afterAlternative = false;
  }
  if (pathOf.length === 1 && !tokens.some((token) => ['--help', '-h', '--version', '-V'].includes(token))) {
    problems.push(`\`vetted ${invocation}\` names no command`);
  }
  return problems;
}

function subcommand(command: Command, name: string): Command | undefined {
  return command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
}

/** Each `npm run <script>` in a snippet, with the workspace it names (`-w clients/typescript`), if any. */
export function npmScripts(snippet: string): Array<{ script: string; workspace?: string }> {
  return [...snippet.matchAll(/npm run ([\w:.-]+)((?:\s+-w\s+\S+)?)/g)].map((match) => {
    const workspace = match[2]?.trim().replace(/^-w\s+/, '');
    return workspace ? { script: match[1]!, workspace } : { script: match[1]! };
  });
}

/** The scripts a package.json defines. */
export function scriptsOf(packageDir: string): Set<string> {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return new Set(Object.keys(manifest.scripts ?? {}));
}

/** The nearest directory holding a package.json, from a file up to the root. */
export function packageDirOf(file: string): string {
  for (let dir = path.dirname(file); dir.startsWith(ROOT); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return ROOT;
}

const REPO_PATH = /^(?:src|api|workers|test|scripts|bench|chaos|ops|schemas|examples|docs|drizzle|clients|bin)\/[\w./-]*$/;

/** Repository paths named in a snippet (`src/engine/stages.ts`, `drizzle/`), without line numbers or placeholders. */
export function repoPaths(snippet: string): string[] {
  return snippet
    .split(/[\s,()`'"]+/)
    .map((token) => token.replace(/:\d+(?:-\d+)?$/, '').replace(/[.;:]+$/, ''))
    .filter((token) => REPO_PATH.test(token));
}

/** Relative link targets in the prose: `[text](target)` and images, without web or mail addresses. */
export function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** Whether a link target resolves: the file exists and, for `file.md#anchor`, the file has that heading. */
export function linkProblem(fromFile: string, target: string): string | undefined {
  const [file, anchor] = target.split('#') as [string, string | undefined];
  const resolved = file === '' ? fromFile : path.resolve(path.dirname(fromFile), decodeURI(file));
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile() && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
    return `${target}: no heading with that anchor`;
  }
  return undefined;
}

/** The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces as hyphens). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = match[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** A path relative to the root, for messages. */
export function relative(file: string): string {
  return path.relative(ROOT, file);
}
