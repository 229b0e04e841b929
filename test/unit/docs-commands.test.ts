/**
 * Every command in the docs still runs: each `vetted <command> [--flag]` named in any Markdown file exists in the
 * CLI's commander program with those flags, each `npm run <script>` exists in its package.json, each repository
 * path named in code exists, and each relative link resolves. The reader is checked on made-up commands first,
 * so a pass means something.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildCliProgram, codeSnippets, commandProblems, linkProblem, markdownFiles, npmScripts, packageDirOf, relative,
  relativeLinks, repoPaths, ROOT, scriptsOf, vettedInvocations,
} from '../support/markdown-docs.ts';

let program: Command;
beforeAll(async () => {
  program = await buildCliProgram();
});

const files = markdownFiles();
const snippetsOf = (file: string) => codeSnippets(readFileSync(file, 'utf8'));

describe('the reader of commands bites', () => {
  it('finds the invocations in inline code and in shell blocks, and stops at the end of each command', () => {
    const markdown = [
      'Run `vetted runs --status failed | head -1` or `ID=$(npx vetted enqueue --request r.json)`.',
      '```sh',
      'npx vetted shadow report --since 7d \\',
      '  --format csv > out.csv   # a comment --not-a-flag',
      '```',
      'The queue `vetted-extract`, the key `vetted:enc:v1:k1:…` and the package `vetted` are not commands.',
    ].join('\n');
    const invocations = codeSnippets(markdown).flatMap(vettedInvocations);
    expect(invocations).toEqual(['shadow report --since 7d --format csv', 'runs --status failed', 'enqueue --request r.json']);
  });

  it('accepts real commands, subcommands, alternatives and option values', () => {
    for (const ok of [
      'dry-run --model <file> --request <file> [--builder heuristic]',
      'keys create [--reviewer rv_…] [--tenant t --role r] [--override]|list|revoke',
      'shadow enable|settings|report|replay',
      'retention set --tenant t [--documents-days n|--keep-forever] [--mask-pii|--no-mask-pii]',
      'decide <runId> --action approve|edit|reject|retry [--set field=value] [--reason] [--review id] [--override]',
      'reviewers add --tenant acme --name "Ada Lovelace" --role reviewer --team imaging',
      'models --tenant acme',
      '--help',
    ]) {
      expect(commandProblems(program, ok), ok).toEqual([]);
    }
  });

  it('refuses a made-up flag, a made-up subcommand and a made-up command', () => {
    expect(commandProblems(program, 'dry-run --model m.json --request r.json --turbo')).toEqual(['`vetted dry-run` has no option --turbo']);
    expect(commandProblems(program, 'keys create --tenant acme --colour blue')).toEqual(['`vetted keys create` has no option --colour']);
    expect(commandProblems(program, 'shadow enable|settings|export')).toEqual(['`vetted shadow` has no command export']);
    expect(commandProblems(program, 'keys rotate --tenant acme')).toEqual(['`vetted keys` has no command rotate']);
    expect(commandProblems(program, 'teleport --now')).toEqual(['`vetted` has no command teleport']);
    // An option belongs to the command it follows: what `models add` lacks is refused even if another command has it.
    expect(commandProblems(program, 'models add f.json --port 1')).toEqual(['`vetted models add` has no option --port']);
  });

  it('reads npm scripts with their workspace, and repository paths without line numbers', () => {
    expect(npmScripts('npm run bench -- --only micro && npm run build -w clients/typescript')).toEqual([
      { script: 'bench' }, { script: 'build', workspace: 'clients/typescript' },
    ]);
    expect(repoPaths('see src/engine/store.ts:15, (test/unit/x.test.ts) and drizzle/.')).toEqual(['src/engine/store.ts', 'test/unit/x.test.ts', 'drizzle/']);
  });

  it('resolves links to files and to headings, and refuses the rest', () => {
    const readme = path.join(ROOT, 'README.md');
    expect(relativeLinks('[a](docs/x.md) [b](https://example.com) ![c](img.png) `[d](not-a-link.md)`')).toEqual(['docs/x.md', 'img.png']);
    expect(linkProblem(readme, 'package.json')).toBeUndefined();
    expect(linkProblem(readme, 'docs/no-such-page.md')).toBe('docs/no-such-page.md: no such file');
    expect(linkProblem(readme, 'README.md#no-such-heading')).toBe('README.md#no-such-heading: no heading with that anchor');
  });
});

describe('the docs hold to the code', () => {
  it('finds Markdown to check, the README and the guide among it', () => {
    expect(files.map(relative)).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'bench/README.md', 'chaos/README.md']));
  });

  it('every `vetted` command, subcommand and flag they name exists', () => {
    const problems = files.flatMap((file) =>
      snippetsOf(file).flatMap(vettedInvocations).flatMap((invocation) => commandProblems(program, invocation).map((problem) => `${relative(file)}: ${problem} (in \`vetted ${invocation}\`)`)),
    );
    expect(problems).toEqual([]);
    expect(files.flatMap((file) => snippetsOf(file).flatMap(vettedInvocations)).length).toBeGreaterThan(50);
  });

  it('every `npm run` script they name exists in its package.json', () => {
    const problems: string[] = [];
    for (const file of files) {
      for (const { script, workspace } of snippetsOf(file).flatMap(npmScripts)) {
        const candidates = workspace ? [path.join(ROOT, workspace)] : [packageDirOf(file), ROOT];
        if (!candidates.some((dir) => scriptsOf(dir).has(script))) problems.push(`${relative(file)}: npm run ${script}${workspace ? ` -w ${workspace}` : ''} is no script`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every repository path they name in code exists', () => {
    const problems = files.flatMap((file) =>
      snippetsOf(file).flatMap(repoPaths).filter((named) => !existsSync(path.join(ROOT, named)) && !existsSync(path.join(packageDirOf(file), named))).map((named) => `${relative(file)}: ${named}`),
    );
    expect(problems).toEqual([]);
  });

  it('every relative link resolves to a file (and a heading, when it names one)', () => {
    const problems = files.flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = linkProblem(file, target);
        return problem ? [`${relative(file)}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});
