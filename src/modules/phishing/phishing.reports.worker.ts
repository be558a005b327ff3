import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import {
  ReportedMessageError,
  type ReportedMessageErrorReason,
  type ReportedMessageTokens,
  tokensFromReportedMessage,
} from './phishing.reports.js';

/**
 * The entry of the worker threads that read reported messages (phishing.reports.reader.ts
 * runs them): a message is anyone's bytes, so it is parsed here, where the time it takes holds
 * no request of anyone else, and where the pool can stop it by ending the thread.
 */

export interface ReadTask {
  /** Names the task in the "reading began" message. */
  id: number;
  /** The message's bytes (a buffer of their own, moved here rather than copied). */
  raw: Uint8Array;
  phishUrls: string[];
  /** The parser's own deadline: it stops between chunks and says `too_slow`. */
  timeLimitMs: number;
}

export type ReadOutcome = { tokens: ReportedMessageTokens } | { refused: ReportedMessageErrorReason };

/** Posted when the task begins: the pool's time limit counts from here, not from the queue. */
export interface ReadingBegan {
  reportedMessageReadingBegan: number;
}

export function isReadingBegan(message: unknown): message is ReadingBegan {
  return typeof (message as ReadingBegan | null)?.reportedMessageReadingBegan === 'number';
}

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
      tokens: await tokensFromReportedMessage(raw, {
        phishUrls: task.phishUrls,
        timeLimitMs: task.timeLimitMs,
      }),
    };
  } catch (err) {
    // Errors lose their class between threads: the reason travels as data.
    if (err instanceof ReportedMessageError) return { refused: err.reason };
    throw err;
  }
}
