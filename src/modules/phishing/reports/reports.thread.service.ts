import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { tokensFromReportedMessage } from './reports.extract.model.js';
import { type ReadingBegan, type ReadOutcome, type ReadTask, ReportedMessageError } from './reports.model.js';

/**
 * The entry of the worker threads that read reported messages (reports.reader.service.ts
 * runs them): a message is anyone's bytes, so it is parsed here, where the time it takes holds
 * no request of anyone else, and where the pool can stop it by ending the thread.
 */

/**
 * A large message leaves tens of MiB of garbage in this thread's heap, which V8 would keep until
 * the next read needs room: collected at once (some 10 ms, off the event loop), the threads hold
 * 20 MiB less between reports (measured: a 9 MiB report then a 180,000-link one, peak RSS 292 →
 * 271 MiB). `gc` is reached through V8's `--expose-gc`, set here, in this thread only.
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
const LARGE_MESSAGE_BYTES = 1024 * 1024;

export default async function readReportedMessage(task: ReadTask): Promise<ReadOutcome> {
  try {
    return await read(task);
  } finally {
    if (task.raw.byteLength >= LARGE_MESSAGE_BYTES) collect();
  }
}

async function read(task: ReadTask): Promise<ReadOutcome> {
  parentPort?.postMessage({ reportedMessageReadingBegan: task.id } satisfies ReadingBegan);
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  try {
    return {
      reading: await tokensFromReportedMessage(raw, {
        phishUrls: task.phishUrls,
        headerName: task.headerName,
        envelope: task.envelope,
        timeLimitMs: task.timeLimitMs,
      }),
    };
  } catch (err) {
    // Errors lose their class between threads: the reason travels as data.
    if (err instanceof ReportedMessageError) return { refused: err.reason };
    throw err;
  }
}
