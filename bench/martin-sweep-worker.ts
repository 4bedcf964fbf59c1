// One thread's share of the martin sweep (bench/ai-search.ts measureMartinSweepThreads): the
// configurations i with i % of === index, over the same 30 days of Paper, made in this thread.
import { parentPort, workerData } from 'node:worker_threads';
import { sweepPart } from './ai-search.ts';

const { index, of, seconds } = workerData as { index: number; of: number; seconds: boolean };
parentPort!.on('message', () => parentPort!.postMessage(sweepPart(index, of, seconds)));
