import { parentPort } from 'node:worker_threads';
import type {
  ReadingBegan,
  ReadOutcome,
  ReadTask,
} from '../../src/modules/phishing/reports/reports.model.js';
import readReportedMessage from '../../src/modules/phishing/reports/reports.thread.service.js';

/**
 * The reported-message worker, except for a message that begins with the name of a misbehaviour
 * (what a parser defeated by a message could do): `SPIN` never ends and never yields, `HOG`
 * fills the heap, `EXIT` ends its thread.
 */
export default async function misbehavingReader(task: ReadTask): Promise<ReadOutcome> {
  const misbehaviour = new TextDecoder().decode(task.raw.subarray(0, 4));
  if (!['SPIN', 'HOG\n', 'EXIT'].includes(misbehaviour)) return readReportedMessage(task);
  parentPort?.postMessage({ reportedMessageReadingBegan: task.id } satisfies ReadingBegan);
  if (misbehaviour === 'EXIT') process.exit(1);
  const hoard: number[][] = [];
  for (;;) if (misbehaviour === 'HOG\n') hoard.push(new Array(1_000_000).fill(hoard.length));
}
