/**
 * The one place AJV instances are made, so every validator in Vetted speaks the same dialect:
 * draft-07, all errors reported, ajv-formats, and our annotation keywords allowed.
 */
import { Ajv, type Options } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { createRequire } from 'node:module';
import addFormatsModule from 'ajv-formats';
import type { RE2 as RE2Class } from 're2-wasm';
import { ANNOTATION_KEYWORDS, isHttpUrl } from './payload-rules.ts';

// ajv-formats is CommonJS with `export default`; under NodeNext the default import is the module object's
// default at runtime but typed as the namespace, hence the cast.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export function createAjv(options: Options = {}): Ajv {
  // ownProperties: a required field named like an Object.prototype member (`toString`, `constructor`) must be
  // present on the payload itself, not found on its prototype.
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, ownProperties: true, ...options });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'number', 'boolean', 'object'] });
  return ajv;
}

/**
 * Model schemas' `pattern`s run in RE2, whose time is linear in the input. A model source can arrive inline
 * from any tenant, and JavaScript's backtracking engine takes exponential time on patterns such as
 * `^(\w|\d)*$` against a crafted prompt: minutes in the worker's event loop, stalling every run in it.
 * The extractor drops patterns RE2 cannot run (lookaround, backreferences), with a warning.
 */
const linearRegExp: RegExpEngine = Object.assign((pattern: string, flags: string) => new (re2())(pattern, flags.includes('u') ? flags : `${flags}u`), {
  code: 'new (require("re2-wasm").RE2)',
});

// RE2 is WebAssembly, compiled when loaded: loaded on first use, so a process that validates no model payload
// (a CLI command, `vetted --help`) does not pay for it. re2-wasm is CommonJS, hence require.
const require = createRequire(import.meta.url);
let re2Class: typeof RE2Class | undefined;
function re2(): typeof RE2Class {
  re2Class ??= (require('re2-wasm') as { RE2: typeof RE2Class }).RE2;
  return re2Class;
}

/** Whether a model schema's pattern can run in the payload validator's engine (see linearRegExp). */
export function isLinearPattern(pattern: string): boolean {
  try {
    new (re2())(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The AJV dialect for model payloads (and the edits that go into them): createAjv, with `uri` meaning http(s)
 * and patterns run in linear time.
 */
export function createPayloadAjv(): Ajv {
  return createAjv({ code: { regExp: linearRegExp } }).addFormat('uri', { type: 'string', validate: isHttpUrl });
}

/**
 * The dialect of a model's *published* input schema (OpenAPI 3.0, as Replicate serves it), for the final guard
 * (src/stages/validator/published-issues.ts): `nullable` understood, vendor keywords and unknown formats
 * ignored (formats, like patterns, are the strict schema's job), every error reported.
 */
export function createPublishedSchemaAjv(): Ajv {
  return new Ajv({ allErrors: true, strict: false, validateFormats: false, allowUnionTypes: true, ownProperties: true });
}
