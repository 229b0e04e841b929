/**
 * What a worker process can run: the five stages in pipeline order, then the side queues. Apart from
 * start-workers.ts so `vetted worker --help` can list them without loading BullMQ; a test holds the stage part
 * to the stage table (src/engine/stages.ts).
 */
import type { StageName } from '../src/engine/stages.ts';

const STAGES_IN_ORDER = ['extract', 'assemble', 'build', 'validate', 'execute'] as const satisfies readonly StageName[];

export const WORK_KINDS = [...STAGES_IN_ORDER, 'expiry', 'webhooks', 'notifications', 'maintenance', 'shadow'] as const;
export type WorkKind = StageName | 'expiry' | 'webhooks' | 'notifications' | 'maintenance' | 'shadow';
