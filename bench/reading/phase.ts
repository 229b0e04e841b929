/**
 * Phase `reading` (`npm run bench -- --only reading`): the heuristic builder's CPU per build on the bench's
 * requests and on the placement corpus, beside the same builds with no words to read, so the share reading
 * takes is measured in the same run. No Redis or database. `npx tsx bench/reading-cpu.ts --against <git ref>`
 * also builds with the builder of another commit, alternated in the same process, and compares every candidate.
 */
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { Phase } from '../phase.ts';
import { formatReading, loadWorkload, measureReading } from './measure.ts';

/** Rounds per mix and builder; the figure is the median round. */
const ROUNDS = 7;

export const readingPhase: Phase = {
  name: 'reading',
  summary: 'CPU per heuristic build (bench requests, placement corpus) against the same builds with no words to read',
  optIn: true,
  async run(context) {
    const workload = await loadWorkload();
    context.note(`reading: ${workload.bench.length} bench builds and ${workload.corpus.length} corpus builds per round, ${ROUNDS} rounds`);
    const measurement = measureReading(
      workload,
      [
        { name: 'heuristic', build: buildHeuristicPayload },
        { name: 'heuristic, no words to read', build: buildHeuristicPayload, unread: true },
      ],
      ROUNDS,
    );
    return {
      section: {
        title: 'Reading the request: heuristic builder CPU per build (bench/reading, docs/performance.md)',
        lines: formatReading(measurement),
      },
    };
  },
};
