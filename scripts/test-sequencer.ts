import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The chaos test first: a small file that drives three servers for five minutes of a loaded machine.
 * Vitest orders a fresh clone's files by size, which put it near the end of the run, where nothing else was
 * left to run beside it: its minutes were added to the run's instead of spread under the short files.
 * Only it: the other files that start servers of their own (the crash tests, the key rotation) put first
 * beside it overloaded the machine's two cores, and their starts ran past their deadlines.
 */
const HEAVIEST = ['server/cluster/chaos.test.ts'];

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
