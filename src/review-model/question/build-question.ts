/**
 * The question a review asks the person the request came from, built by code from the facts (an LLM never
 * chooses ids, options, their order or the expected input). One rule per reason, so what a
 * "yes" or a "2" will do is fixed when the question is asked:
 *
 *   reason                                     expects        options              an answer that accepts
 *   policy / threshold / unused / schema       yes_no         yes, no              approve → execute
 *   part of the request not placed             yes_no         yes, no              approve → execute
 *   personal data (information review)         yes_no         yes, no              approve → build
 *   nothing to build from                      free_text      —                    the prompt field → build
 *   an invalid value, enum field (≤ 12)        single_choice  the allowed values   that field → validate
 *   an invalid value, array of enum            multi_choice   the allowed values   that field → validate
 *   an invalid value, any other field          free_text      —                    that field → validate
 *   example values in the payload              yes_no         yes, no              remove them → validate
 *   a field no value fits (schema_unsatisfiable) yes_no        yes, no              remove it → validate
 *   response review                            yes_no         yes, no              accept → complete
 *   builder failed                             yes_no         yes, no              retry → build
 *   execution uncertain                        yes_no         yes, no              run again → execute
 *
 * "No" rejects, everywhere. A choice between machine-made values is a `disambiguation` (its replies are checked
 * deterministically only); everything else is the `planner`'s, whose unclear replies may be interpreted.
 */
import { assertNever } from '../../errors.ts';
import type { CandidatePayload, FieldSpec, ModelSchema, ReturnTo, ReviewOption, ValidationIssue } from '../../generated/contracts.ts';
import type { ParkReason } from '../../stages/gate.ts';
import type { ExpectedInput, ReviewSource } from './question-kinds.ts';
import { message, type Locale } from './messages.ts';

export interface QuestionFacts {
  why: ParkReason;
  issues: readonly ValidationIssue[];
  candidate: CandidatePayload | null;
  /** The model's schema, when the stage had it (enum values, field titles, the prompt field). */
  schema?: ModelSchema;
  /** Codes of the personal data found in the request (safety flags). */
  safetyFlags?: readonly string[];
  locale: Locale;
}

export interface ReviewQuestion {
  question: string;
  locale: Locale;
  expectedInput: ExpectedInput;
  source: ReviewSource;
  options: ReviewOption[];
  returnTo: ReturnTo;
  answerField?: string;
}

/** More allowed values than this are not offered as numbered options: the person writes the value instead. */
export const MAX_CHOICE_OPTIONS = 12;

export function buildQuestion(facts: QuestionFacts): ReviewQuestion {
  const { why, locale } = facts;
  switch (why.reason) {
    case 'policy_requires_human':
    case 'low_confidence':
    case 'too_many_changes':
    case 'request_unused':
      return yesNo(locale, message(locale, 'runAsIs'), { action: 'approve', route: 'execute' });
    case 'request_partly_unused':
      return yesNo(locale, message(locale, 'runWithoutParts', { what: unusedPhrases(facts.candidate) }), { action: 'approve', route: 'execute' });
    case 'schema_changed':
      return blockingField(facts) ? fieldQuestion(facts) : yesNo(locale, message(locale, 'schemaChanged'), { action: 'approve', route: 'execute' });
    case 'safety_flags':
      return yesNo(locale, message(locale, 'personalData', { what: (facts.safetyFlags ?? []).join(', ') }), { action: 'approve', route: 'build' });
    case 'nothing_to_build_from':
      return freeText(locale, message(locale, 'whatToMake'), promptField(facts.schema)?.name, 'build');
    case 'validation_failed':
      return fieldQuestion(facts);
    case 'example_leak':
      return yesNo(locale, message(locale, 'removeExampleValues', { fields: leakedFields(facts.issues).join(', ') }), { action: 'edit', route: 'validate' });
    case 'response_review':
      return yesNo(locale, message(locale, 'keepResult'), { action: 'approve', route: 'complete' });
    case 'builder_failed':
      return yesNo(locale, message(locale, 'tryAgain'), { action: 'retry', route: 'build' });
    case 'execution_uncertain':
      return yesNo(locale, message(locale, 'runAgain'), { action: 'approve', route: 'execute' });
    case 'provider_throttled':
      return yesNo(locale, message(locale, 'providerBusy'), { action: 'approve', route: 'execute' });
    default:
      return assertNever(why.reason, 'review reason');
  }
}

function yesNo(locale: Locale, question: string, returnTo: ReturnTo): ReviewQuestion {
  return {
    question, locale, expectedInput: 'yes_no', source: 'planner', returnTo,
    options: [{ id: 'yes', label: message(locale, 'yes') }, { id: 'no', label: message(locale, 'no') }],
  };
}

function freeText(locale: Locale, question: string, answerField: string | undefined, route: ReturnTo['route']): ReviewQuestion {
  return { question, locale, expectedInput: 'free_text', source: 'planner', options: [], returnTo: { action: 'edit', route }, ...(answerField ? { answerField } : {}) };
}

/**
 * One field at a time: the first field with a blocking issue. Its allowed values are offered when there are few
 * enough; otherwise the person writes the value. When the problem is not one field's, they say the request again.
 */
function fieldQuestion(facts: QuestionFacts): ReviewQuestion {
  const { locale } = facts;
  const name = blockingField(facts);
  const field = name ? facts.schema?.fields.find((f) => f.name === name) : undefined;
  const route = facts.candidate ? 'validate' : 'build';
  if (!name || !field) return freeText(locale, message(locale, 'sayAgain'), undefined, route);
  const label = field.title ?? field.name;
  // No value fits it (the model's published schema contradicts itself): the only way on is without it.
  if (field.unsatisfiable !== undefined) return yesNo(locale, message(locale, 'runWithout', { field: label }), { action: 'edit', route });
  const values = allowedValues(field, facts.schema);
  if (values && values.length > 0 && values.length <= MAX_CHOICE_OPTIONS) {
    const many = field.type === 'array';
    return {
      question: message(locale, many ? 'pickValues' : 'pickValue', { field: label }),
      locale,
      expectedInput: many ? 'multi_choice' : 'single_choice',
      source: 'disambiguation',
      options: values.map((value) => ({ id: String(value), label: String(value) })),
      returnTo: { action: 'edit', route },
      answerField: field.name,
    };
  }
  return freeText(locale, message(locale, 'giveValue', { field: label }), field.name, route);
}

/** The top-level field of the first blocking issue, if it names one. */
function blockingField(facts: QuestionFacts): string | undefined {
  const issue = facts.issues.find((i) => i.severity === 'blocking' && i.path.replace(/^\//, '') !== '');
  return issue?.path.replace(/^\//, '').split('/')[0];
}

/** A field's allowed values: its enum, or its items' enum for an array. */
export function allowedValues(field: FieldSpec, schema: ModelSchema | undefined): unknown[] | undefined {
  if (field.type !== 'array') return field.enum?.filter((value) => value !== null);
  const properties = schema?.jsonSchema.properties as Record<string, { items?: { enum?: unknown[] } }> | undefined;
  return properties?.[field.name]?.items?.enum?.filter((value) => value !== null);
}

function promptField(schema: ModelSchema | undefined): FieldSpec | undefined {
  return schema?.fields.find((field) => field.role === 'prompt');
}

function unusedPhrases(candidate: CandidatePayload | null): string {
  return (candidate?.unusedRequest ?? []).map((item) => `"${item.phrase}"`).join(', ');
}

/** The fields whose value was copied from the model's example. */
export function leakedFields(issues: readonly ValidationIssue[]): string[] {
  return fieldsWith(issues, 'example_leak');
}

/**
 * What a "yes" to "remove them?" / "run without it?" removes: the fields copied from the model's example, and
 * those no value fits.
 */
export function fieldsToRemove(issues: readonly ValidationIssue[]): string[] {
  return [...new Set([...fieldsWith(issues, 'example_leak'), ...fieldsWith(issues, 'schema_unsatisfiable')])];
}

function fieldsWith(issues: readonly ValidationIssue[], code: ValidationIssue['code']): string[] {
  const fields = issues.filter((i) => i.code === code && i.severity === 'blocking').map((i) => i.path.replace(/^\//, '').split('/')[0] ?? '');
  return [...new Set(fields.filter((f) => f !== ''))];
}
