import { valueText } from '../ui/format.ts';

/**
 * How a chat reply was read, in words, from the decision's `parsed` (src/review/reply-service.ts: the layer,
 * the decision and what the reply said): "continue, by the fast path (yes)".
 */
export function replyReading(parsed: Record<string, unknown>): string {
  const decision = typeof parsed.decision === 'string' ? parsed.decision.replace(/_/g, ' ') : 'no decision';
  const layer = typeof parsed.layer === 'string' ? layerText(parsed.layer) : '';
  const said = typeof parsed.reply === 'object' && parsed.reply !== null ? whatItSaid(parsed.reply as Record<string, unknown>) : '';
  return `${decision}${layer}${said ? ` (${said})` : ''}`;
}

/** Which layer read it (src/review/reply/types.ts ReplyLayer); a layer this console does not know is named as is. */
function layerText(layer: string): string {
  switch (layer) {
    case 'fast_path': return ', by the fast path';
    case 'deterministic': return ', by rule (a disambiguation no option matched)';
    case 'interpreter': return ', by the interpreter';
    case 'none': return '';
    default: return `, by ${layer.replace(/_/g, ' ')}`;
  }
}

function whatItSaid(reply: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof reply.approved === 'boolean') parts.push(reply.approved ? 'yes' : 'no');
  if (Array.isArray(reply.selected) && reply.selected.length) parts.push(`picked ${reply.selected.join(', ')}`);
  if (typeof reply.answer === 'string') parts.push(`“${reply.answer}”`);
  const changes = typeof reply.modifications === 'object' && reply.modifications !== null ? Object.entries(reply.modifications as Record<string, unknown>) : [];
  if (changes.length) parts.push(`changes ${changes.map(([field, value]) => `${field} → ${valueText(value)}`).join(', ')}`);
  return parts.join('; ');
}
