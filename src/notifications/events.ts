/** The events a tenant can be notified of. Apart from settings.ts so `vetted --help` can list them without loading it. */
import type { NotificationEvent } from '../generated/contracts.ts';

export const ALL_EVENTS: readonly NotificationEvent[] = ['waiting', 'expiring', 'expired'];
