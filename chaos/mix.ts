/**
 * The requests a chaos run sends: a fixed list, made up front from the seed, so the same flags send the same
 * mix. Every request carries a unique requestKey, and the same key as a tag in its prompt: the prompt becomes
 * the prediction's `prompt` input, so the provider's own log of created predictions can be grouped by run.
 * Most requests run a Replicate model; some run a fal endpoint and an OpenAI operation, each sent inline as the
 * provider's published document (examples/providers), so the same faults meet every provider's ledger path.
 */
import { readFileSync } from 'node:fs';


/** What a request is meant to exercise, and so what outcome is expected of it. */
export type RequestKind =
  /** openai builder, policy auto: should complete. */
  | 'plain'
  /** require_human: parks for payload review; the reviewer approves, edits or rejects. */
  | 'human'
  /** require_human with a short review TTL, and the reviewer leaves it alone: should expire. */
  | 'human_expire'
  /** require_human with an SLA (remind after 3 s, escalate after 6 s); decided after both: reminders under faults. */
  | 'human_sla'
  /** auto with responseReview: the reviewer asks for a second execution (a deliberate new ledger step) or accepts. */
  | 'response_review'
  /** sim:slow for the LLM: a slow answer, still inside the client's timeout; should complete. */
  | 'llm_slow'
  /** sim:500 for the LLM: the builder gives up, an error-recovery review; the reviewer retries, then rejects. */
  | 'llm_500'
  /** sim:fail in the prediction input (heuristic builder, so the LLM never sees it): fails with PROVIDER_FAILED. */
  | 'provider_fail'
  /** sim:hang in the prediction input: the prediction never ends, the provider timeout fails the run. */
  | 'provider_hang'
  /** sim:429 in the prediction input: every create is throttled; retries run out, then a person rejects it. */
  | 'provider_429'
  /** plain, and the client cancels it (DELETE) a moment after the ack, racing the stages. */
  | 'client_cancel'
  /** a fal endpoint (fal-ai/flux/dev) through fal's queue at the fal sim: should complete. */
  | 'fal'
  /** an OpenAI operation (createImage) at the OpenAI sim, keyed by its ledger step: should complete. */
  | 'openai'
  /** openai with sim:lost-once: the image is made and stored under the key, its first answer lost; the retry must replay it. */
  | 'openai_lost';

/** Relative weights of the mix; what is left over after the others is `plain`. */
const WEIGHTS: Readonly<Record<Exclude<RequestKind, 'plain'>, number>> = {
  human: 0.14,
  human_expire: 0.02,
  human_sla: 0.04,
  response_review: 0.04,
  llm_slow: 0.05,
  llm_500: 0.04,
  provider_fail: 0.04,
  provider_hang: 0.02,
  provider_429: 0.015,
  client_cancel: 0.03,
  fal: 0.04,
  openai: 0.04,
  openai_lost: 0.01,
};

/** The team `human_sla` reviews escalate to; the chaos run gives it a reviewer with an address. */
export const ESCALATION_TEAM = 'chaos-leads';

/** Review TTL for `human_expire`; short so expiry happens within the run, long enough to outlive a fault. */
export const EXPIRE_TTL_SECONDS = 20;
/**
 * `provider_429` runs spend about two minutes in BullMQ's backoff (8 attempts, 1 s doubling) before a person
 * is asked; they are sent in the first fraction of the load so they can settle before the drain deadline.
 */
const THROTTLED_WITHIN_FIRST = 0.2;

const MODEL = 'black-forest-labs/flux-schnell';
/** The published documents of the other providers' models, sent inline: the file names its provider. */
const providerModel = (file: string) => JSON.parse(readFileSync(new URL(`../examples/providers/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const FAL_MODEL = providerModel('fal-flux-dev.provider.json');
const OPENAI_MODEL = providerModel('openai-create-image.provider.json');
const SUBJECTS = ['a watercolor fox in the snow', 'a lighthouse at dawn', 'a paper boat on a river', 'a robot reading a book', 'an owl on a lantern'];

export interface PlannedRequest {
  index: number;
  kind: RequestKind;
  requestKey: string;
  body: Record<string, unknown>;
}

/** The tag in a prompt, as written by {@link planRequests}; `tagOf` reads it back from a prediction input. */
export function promptTag(requestKey: string): string {
  return `[ref ${requestKey}]`;
}

const TAG_PATTERN = /\[ref (cx[a-z0-9]+)\]/;

export function tagOf(input: Record<string, unknown>): string | undefined {
  return TAG_PATTERN.exec(JSON.stringify(input))?.[1];
}

export function planRequests(count: number, random: () => number, runSalt: string): PlannedRequest[] {
  const kinds = Array.from({ length: count }, () => pickKind(random));
  // Move the throttled ones to the front (keeping how many there are) so they can finish their backoff.
  const throttled = kinds.filter((k) => k === 'provider_429').length;
  const front = Math.max(1, Math.floor(count * THROTTLED_WITHIN_FIRST));
  const others = kinds.filter((k) => k !== 'provider_429');
  const ordered: RequestKind[] = [];
  const every = throttled > 0 ? Math.max(1, Math.floor(front / throttled)) : Infinity;
  let placed = 0;
  for (let i = 0; ordered.length < count; i++) {
    if (placed < throttled && i % every === 0) {
      ordered.push('provider_429');
      placed++;
    } else ordered.push(others.shift() ?? 'plain');
  }
  return ordered.map((kind, index) => {
    // Letters and digits only: the heuristic builder reads things like "4 images" or "768x512" from a prompt.
    const requestKey = `cx${runSalt}${index.toString(36).padStart(4, '0')}`;
    return { index, kind, requestKey, body: bodyFor(kind, requestKey, SUBJECTS[index % SUBJECTS.length] ?? 'a cat') };
  });
}

function pickKind(random: () => number): RequestKind {
  let roll = random();
  for (const [kind, weight] of Object.entries(WEIGHTS) as [Exclude<RequestKind, 'plain'>, number][]) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'plain';
}

function bodyFor(kind: RequestKind, requestKey: string, subject: string): Record<string, unknown> {
  const prompt = (marker?: string) => `${subject}${marker ? ` ${marker}` : ''} ${promptTag(requestKey)}`;
  const base = { model: MODEL, requestKey, userId: 'chaos-user' };
  switch (kind) {
    case 'plain':
    case 'client_cancel':
      return { ...base, prompt: prompt() };
    case 'human':
      return { ...base, prompt: prompt(), policy: 'require_human' };
    case 'human_sla':
      return { ...base, prompt: prompt(), policy: { mode: 'require_human', sla: { remindAfterSeconds: 3, escalateAfterSeconds: 6, escalateTo: { team: ESCALATION_TEAM } } } };
    case 'human_expire':
      return { ...base, prompt: prompt(), policy: { mode: 'require_human', reviewTtlSeconds: EXPIRE_TTL_SECONDS } };
    case 'response_review':
      return { ...base, prompt: prompt(), policy: { mode: 'auto', responseReview: true } };
    case 'llm_slow':
      return { ...base, prompt: prompt('sim:slow') };
    case 'llm_500':
      return { ...base, prompt: prompt('sim:500') };
    case 'provider_fail':
      return { ...base, prompt: prompt('sim:fail'), builder: 'heuristic' };
    case 'provider_hang':
      return { ...base, prompt: prompt('sim:hang'), builder: 'heuristic' };
    case 'provider_429':
      return { ...base, prompt: prompt('sim:429'), builder: 'heuristic' };
    // The heuristic builder puts the words, tag included, into the payload's prompt as they are, so every
    // execution at these sims can be traced to its run.
    case 'fal':
      return { requestKey, userId: 'chaos-user', modelSource: FAL_MODEL, prompt: prompt(), builder: 'heuristic' };
    case 'openai':
      return { requestKey, userId: 'chaos-user', modelSource: OPENAI_MODEL, prompt: prompt(), builder: 'heuristic' };
    case 'openai_lost':
      return { requestKey, userId: 'chaos-user', modelSource: OPENAI_MODEL, prompt: prompt('sim:lost-once'), builder: 'heuristic' };
  }
}
