/**
 * Layer 1: the fast path. No LLM: the whole reply, normalised, is compared with what the question expects.
 *
 *   yes_no         a yes or a no word of any of the eight languages (words/*.json), or a lone 👍 / 👎
 *   single_choice  an option's 1-based number (`2`, `#2`), or an option's id or label
 *   multi_choice   numbers separated by spaces or commas (`2 3`, `2,3`), each offered once; a "both" word when
 *                  there are exactly two options; an "all" word
 *   free_text      any non-empty text, as written
 *
 * Anything more is not decided here: a yes with something else ("yes but make it square"), a question, a
 * hedge ("maybe", "I think so"). A false yes is the worst error this can make, so a reply that is not exactly
 * one of these goes on to the interpreter, or is asked again.
 */
import { normalizeReply, visibleReply } from './normalize.ts';
import type { ParsedReply, ReplyOption, ReplyQuestion } from './types.ts';
import { replyWords } from './words.ts';

/**
 * A thumbs up or down alone (any skin tone) is a chat app's yes or no button; nothing else made of symbols is
 * read, since symbols are stripped from replies.
 */
const THUMBS = /^\s*(\u{1F44D}|\u{1F44E})[\u{1F3FB}-\u{1F3FF}]?\uFE0F?\s*$/u;

/** The reply read as the question expects, or undefined when it is not exactly an answer. */
export function fastPath(reply: string, question: ReplyQuestion): ParsedReply | undefined {
  const { text, asked } = normalizeReply(reply);
  if (question.expectedInput === 'free_text') {
    const answer = visibleReply(reply);
    return answer === '' ? undefined : { answer };
  }
  if (asked) return undefined;
  switch (question.expectedInput) {
    case 'yes_no':
      return yesOrNo(reply, text);
    case 'single_choice': {
      const option = byNumber(reply, question.options) ?? byName(text, question.options);
      return option ? { selected: [option.id] } : undefined;
    }
    case 'multi_choice': {
      const picked = numbered(reply, question.options) ?? everyOne(text, question.options);
      return picked ? { selected: picked.map((option) => option.id) } : undefined;
    }
  }
}

function yesOrNo(reply: string, text: string): ParsedReply | undefined {
  const thumb = THUMBS.exec(reply)?.[1];
  if (thumb) return { approved: thumb === '\u{1F44D}' };
  const words = replyWords();
  if (words.yes.has(text)) return { approved: true };
  if (words.no.has(text)) return { approved: false };
  return undefined;
}

/** The reply as written, with Arabic-Indic digits as ASCII ones (numbers are read before punctuation goes: `-1` is not `1`). */
function digitsOf(reply: string): string {
  return reply.normalize('NFKC').replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => String((digit.codePointAt(0) ?? 0) % 16)).trim();
}

/** `2`, `#2`, `2.` or `2)`: an option's 1-based number. */
function byNumber(reply: string, options: readonly ReplyOption[]): ReplyOption | undefined {
  const match = /^#?\s*(\d{1,3})\s*[.)]?$/.exec(digitsOf(reply));
  return match ? options[Number(match[1]) - 1] : undefined;
}

function byName(text: string, options: readonly ReplyOption[]): ReplyOption | undefined {
  return options.find((option) => normalizeReply(option.id).text === text || normalizeReply(option.label).text === text);
}

/** `2 3`, `2,3`, `#1, #3`: every number offered, none twice; in option order. */
function numbered(reply: string, options: readonly ReplyOption[]): ReplyOption[] | undefined {
  const parts = digitsOf(reply).split(/\s*,\s*|\s+/);
  if (!parts.every((part) => /^#?\d{1,3}$/.test(part))) return undefined;
  const indexes = parts.map((part) => Number(part.replace('#', '')));
  if (new Set(indexes).size !== indexes.length || indexes.some((i) => i < 1 || i > options.length)) return undefined;
  return options.filter((_, i) => indexes.includes(i + 1));
}

function everyOne(text: string, options: readonly ReplyOption[]): ReplyOption[] | undefined {
  const words = replyWords();
  if (words.all.has(text) && options.length > 0) return [...options];
  if (words.both.has(text) && options.length === 2) return [...options];
  return undefined;
}
