/**
 * The form's validator: AJV 8 (through @rjsf/validator-ajv8) in the server's payload dialect
 * (src/schema/payload-rules.ts): the same annotation keywords, and `uri` meaning an http(s) URL. The schema is
 * the run's own ModelSchema.jsonSchema, so the form flags what the validate stage would.
 *
 * Patterns run in RE2 here too (pattern-engine.ts), never in the browser's backtracking engine.
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import { ANNOTATION_KEYWORDS, isHttpUrl } from '../../../src/schema/payload-rules.ts';
import { linearRegExp } from './pattern-engine.ts';

export const formValidator = customizeValidator({
  ajvOptionsOverrides: { allErrors: true, strict: false, allowUnionTypes: true, ownProperties: true, keywords: [...ANNOTATION_KEYWORDS], code: { regExp: linearRegExp } },
  customFormats: { uri: (value: string) => isHttpUrl(value) },
});
