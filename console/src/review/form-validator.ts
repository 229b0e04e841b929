/**
 * The form's validator: AJV 8 (through @rjsf/validator-ajv8) in the server's payload dialect
 * (src/schema/payload-rules.ts): the same annotation keywords, and `uri` meaning an http(s) URL. The schema is
 * the run's own ModelSchema.jsonSchema, so the form flags what the validate stage would.
 *
 * Patterns run in RE2 here too (re2js, a pure-JavaScript port: linear time in the value, like the server's
 * re2-wasm). A model source can arrive inline from any tenant, and the browser's backtracking engine takes
 * exponential time on a pattern such as `^(a+)+$` against a long value: it would freeze the reviewer's tab as
 * the card opens.
 */
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { RE2JS } from 're2js';
import { ANNOTATION_KEYWORDS, isHttpUrl } from '../../../src/schema/payload-rules.ts';

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

export const formValidator = customizeValidator({
  ajvOptionsOverrides: { allErrors: true, strict: false, allowUnionTypes: true, ownProperties: true, keywords: [...ANNOTATION_KEYWORDS], code: { regExp: linearRegExp } },
  customFormats: { uri: (value: string) => isHttpUrl(value) },
});
