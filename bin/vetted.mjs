#!/usr/bin/env node
// The `vetted` command. It runs the compiled code in dist/ (`npm run build`; `npm ci` and `npm pack` build it),
// with source maps so a stack trace names the TypeScript line. A development checkout without dist/ (or with
// VETTED_FROM_SOURCE=1, to try an edit without rebuilding) runs the sources through tsx instead.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
const source = new URL('../src/cli/main.ts', import.meta.url);

if (existsSync(compiled) && process.env.VETTED_FROM_SOURCE !== '1') {
  process.setSourceMapsEnabled(true);
  await import(compiled.href);
} else {
  await runFromSource();
}

async function runFromSource() {
  const tsx = existsSync(source) ? await import('tsx/esm/api').catch(() => undefined) : undefined;
  if (!tsx) {
    process.stderr.write(
      'vetted: dist/ is missing and the TypeScript sources cannot run here (tsx, a development dependency, is not installed).\n' +
        'In a checkout, run `npm ci` (it builds dist/) or `npm run build`; an installed package ships dist/, so reinstall it.\n',
    );
    process.exit(1);
  }
  tsx.register();
  await import(source.href);
}
