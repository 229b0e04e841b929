/**
 * How the OpenAI sim answers the reply interpreter (json_schema `vetted_reply_interpretation`), deterministically
 * from the reply text (the user message is `Reply: <text>`), so tests can script every decision:
 *
 *   sim:decide=<decision>  that decision (with sim:approved=true|false, sim:answer=<text> up to the next space,
 *                          sim:mods=<json object> as modifications)
 *   never mind / forget it / cancel (and the same in the other seven languages)          → cancel
 *   weather / news / a new request about something else ("what's …", in several languages) → switch_intent
 *   a yes word with "but" and a ratio ("yes, but 16:9", "כן אבל 1:1")                       → continue_with_modifications {aspect_ratio}
 *   a yes word with "but" and "square"                                                     → continue_with_modifications {aspect_ratio: "1:1"}
 *   anything else                                                                          → re_ask
 *
 * The sim's failure markers (sim:bad-json, sim:slow, sim:refuse, sim:500, sim:violate, ...) apply as to any request.
 */
import type { JsonObject } from './openai-fill.ts';

const CANCEL = /never ?mind|forget (it|about it)|\bcancel\b|לא משנה|עזוב|olv[ií]dalo|d[ée]jalo|laisse tomber|oublie|vergiss es|egal|deixa pra l[áa]|esquece|забудь|неважно|انس|لا يهم/i;
const ELSEWHERE = /weather|news|stock|מזג האוויר|חדשות|tiempo|noticias|m[ée]t[ée]o|wetter|previs[ãa]o|погода|الطقس/i;
const YES_BUT = /(yes|yeah|ok|sure|כן|sí|si|oui|ja|sim|да|نعم).*(but|אבל|pero|mais|aber|mas|но|لكن)/i;

export function replyAnswer(userText: string): JsonObject {
  const text = userText.replace(/^Reply:\s*/, '');
  const scripted = /sim:decide=(\w+)/.exec(text);
  if (scripted) return scriptedAnswer(text, scripted[1] ?? 're_ask');
  if (CANCEL.test(text)) return answer('cancel');
  if (ELSEWHERE.test(text)) return answer('switch_intent');
  if (YES_BUT.test(text)) {
    const ratio = /\b(\d{1,2}:\d{1,2})\b/.exec(text)?.[1] ?? (/square|מרובע|cuadrad|carr[ée]|quadrat|квадрат|مربع/i.test(text) ? '1:1' : undefined);
    if (ratio) return answer('continue_with_modifications', { approved: true, modifications: [{ field: 'aspect_ratio', value: ratio }] });
  }
  return answer('re_ask');
}

function scriptedAnswer(text: string, decision: string): JsonObject {
  const approved = /sim:approved=(true|false)/.exec(text)?.[1];
  const said = /sim:answer=(\S+)/.exec(text)?.[1];
  const mods = /sim:mods=(\{.*?\})(\s|$)/.exec(text)?.[1];
  const modifications = mods ? Object.entries(JSON.parse(mods) as JsonObject).map(([field, value]) => ({ field, value: typeof value === 'string' ? value : JSON.stringify(value) })) : null;
  return answer(decision, { approved: approved === undefined ? null : approved === 'true', answer: said ?? null, modifications });
}

function answer(decision: string, parsed: { approved?: boolean | null; answer?: string | null; modifications?: JsonObject[] | null } = {}): JsonObject {
  return { decision, parsed: { approved: parsed.approved ?? null, answer: parsed.answer ?? null, modifications: parsed.modifications ?? null } };
}
