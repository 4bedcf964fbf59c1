import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes (server processes started and killed, thousands of requests), first. Vitest
 * orders a fresh clone's files by size, which put the chaos test (a small file driving three servers for
 * five minutes of a loaded machine) near the end of the run, where nothing else was left to run beside it:
 * its minutes were added to the run's instead of spread under the short files. Measured on a fresh clone;
 * `npm test` prints the slowest files at its end, the list to keep this one by.
 */
const HEAVIEST = [
  'server/cluster/chaos.test.ts',
  'server/cluster/live-crash.test.ts',
  'server/engine/kill.test.ts',
  'server/security/rotate-secret-key.test.ts',
  'server/http/fuzz.test.ts',
  'server/engine/parity.test.ts',
  'server/security/private-files.test.ts',
  'server/security/key-check.test.ts',
];

const rank = (spec: TestSpecification) => {
  const i = HEAVIEST.findIndex((path) => spec.moduleId.endsWith(path));
  return i < 0 ? HEAVIEST.length : i;
};

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's own order (the last run's durations where it has them, else size) for the rest.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
