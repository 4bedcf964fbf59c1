// The end of `npm test`: the failed tests of both vitest runs (their output is long, and a CI log may
// keep only its tail), then one plain closing line that any CI reader understands.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

interface Assertion {
  fullName: string;
  status: string;
  failureMessages?: string[];
}
interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; status: string; message?: string; startTime?: number; endTime?: number; assertionResults: Assertion[] }[];
}

const missing: Report = { numPassedTests: 0, numFailedTests: 1, numPendingTests: 0, testResults: [] };

function read(run: string): Report {
  try {
    return JSON.parse(readFileSync(`test-results/vitest-${run}.json`, 'utf8')) as Report;
  } catch {
    console.log(`FAIL the ${run} run wrote no report (test-results/vitest-${run}.json)`);
    return missing;
  }
}

const firstLine = (text = '') => text.split('\n').find((line) => line.trim() !== '') ?? '';

const reports = ['e2e', 'rest'].map(read);
for (const report of reports) {
  for (const file of report.testResults) {
    const name = relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failed.length === 0) console.log(`FAIL ${name}: ${firstLine(file.message)}`);
    for (const a of failed) console.log(`FAIL ${name} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  }
}
// Vitest fails a run on an error outside any test (an unhandled rejection, an error thrown after a test
// ended) while every test passes, and its report does not say so: the exit codes (arguments, e2e then
// rest) do, and the run's log holds the error.
const logs: Record<string, string> = { e2e: 'test-results/e2e.log', rest: 'test-results/rest.log' };
['e2e', 'rest'].forEach((run, i) => {
  const report = reports[i] as Report;
  const code = process.argv[2 + i];
  if (code === undefined || code === '0' || report.numFailedTests > 0) return;
  console.log(`FAIL the ${run} run exited with ${code} outside its tests; from ${logs[run]}:`);
  let text = '';
  try {
    text = stripVTControlCharacters(readFileSync(logs[run] as string, 'utf8'));
  } catch {}
  const lines = text.split('\n');
  const at = lines.findIndex((line) => /Unhandled|⎯⎯/.test(line));
  console.log(at < 0 ? '  (no error in the log)' : lines.slice(at, at + 30).join('\n'));
});
// The slowest files of both runs: where the suite's time goes (it must stay within CI's budget).
const timed = reports.flatMap((r) => r.testResults.map((f) => ({ name: relative(process.cwd(), f.name), s: ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000 })));
const slowest = timed.sort((a, b) => b.s - a.s).slice(0, 12);
if (slowest.length > 0) console.log(`slowest files: ${slowest.map((f) => `${f.name} ${f.s.toFixed(0)} s`).join(', ')}`);
const sum = (key: 'numPassedTests' | 'numFailedTests' | 'numPendingTests') => reports.reduce((total, report) => total + report[key], 0);
console.log(`${sum('numPassedTests')} passed, ${sum('numFailedTests')} failed, ${sum('numPendingTests')} skipped`);
