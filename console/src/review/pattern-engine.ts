/**
 * The console's regular-expression engine for AJV: RE2 (re2js, a pure-JavaScript port: linear time in the
 * value, like the server's re2-wasm). A model source can arrive inline from any tenant, and the browser's
 * backtracking engine takes exponential time on a pattern such as `^(a+)+$` against a long value: it would
 * freeze the reviewer's tab as the card opens.
 */
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/** AJV's regular-expression engine, in RE2. AJV asks with the `u` flag; RE2 reads Unicode always. */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(pattern);
    } catch {
      // The server drops patterns RE2 cannot run before a schema is stored, so none reaches a form; a value is
      // never refused here for a pattern the server would not check.
      return { test: () => true };
    }
    return { test: (value: string) => compiled.matcher(value).find() };
  },
  { code: 're2js' },
);
