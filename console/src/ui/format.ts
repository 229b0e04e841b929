/** Small formatting helpers shared by the pages. */

export function ageOf(iso: string, now = Date.now()): string {
  return durationText(Math.max(0, now - Date.parse(iso)));
}

export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

export function labelOf(id: string): string {
  const text = id.replace(/[_.]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function timeText(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A value as a reviewer reads it: strings bare, everything else as compact JSON. */
export function valueText(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Who acted, without the machinery: `reviewer:rv_1` → `rv_1`, `key:abc` → `key abc`. */
export function actorText(actor: string): string {
  if (actor.startsWith('reviewer:')) return actor.slice('reviewer:'.length);
  if (actor.startsWith('key:')) return `key ${actor.slice(4)}`;
  return actor;
}
