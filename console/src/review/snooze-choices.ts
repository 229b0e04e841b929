/**
 * "Not now" on a card: how long a review stays out of the signed-in person's queue. "Tomorrow" is 9:00 on the
 * next day in the reader's own time zone. Pure (the time is passed in), so it is tested without a browser.
 */
export interface SnoozeChoice {
  label: string;
  forSeconds: number;
}

const MORNING_HOUR = 9;

export function snoozeChoices(now: Date): SnoozeChoice[] {
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(MORNING_HOUR, 0, 0, 0);
  return [
    { label: '1 hour', forSeconds: 3600 },
    { label: '4 hours', forSeconds: 4 * 3600 },
    { label: `Tomorrow ${MORNING_HOUR}:00`, forSeconds: Math.round((tomorrow.getTime() - now.getTime()) / 1000) },
  ];
}
