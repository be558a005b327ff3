import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { Piscina } from 'piscina';
import { fromProjectRoot } from '../../../core/paths.js';
import { phishBases } from './reports.links.model.js';
import {
  isReadingBegan,
  type ReadOutcome,
  type ReadTask,
  ReportedMessageError,
  type ReportedMessageReading,
} from './reports.model.js';

/**
 * Reads reported messages in worker threads (piscina), never on the event loop: whatever a
 * message holds, requests of everyone else are answered meanwhile. Each read is bounded in time
 * (the thread is ended when the limit passes, so not even a loop that never yields inside the
 * MIME parser can hold on), in memory (the thread's V8 heap) and in number (a short queue, then
 * 503 with Retry-After). Any failure of a thread is a ReportedMessageError for the caller.
 */

/** Threads reading at once, per process (each report takes one for at most its time limit). */
export const READER_THREADS = 2;
/** Large reports that may wait for a thread when all are reading; one more is refused at once. */
export const READER_QUEUE_MAX = 4;
/**
 * Small reports (a button's everyday message is tens of KiB) that may wait besides: a burst of
 * them (100 a second) is read in turn rather than refused, and they hold little memory
 * (SMALL_REPORT_BYTES each at most: some 15 MiB in all).
 */
export const READER_SMALL_QUEUE_MAX = 60;
export const SMALL_REPORT_BYTES = 256 * 1024;
/**
 * How long starting a thread may take, at most, counted in a report's wait: some 50 ms on a quiet
 * machine, seconds on one whose every core is busy (from the TypeScript sources, the thread also
 * compiles its modules).
 */
export const READER_START_MS = 10_000;

/**
 * How long a report may wait for a thread to begin reading it: a thread's start, then the reads
 * ahead of it in a full queue, each its time limit at worst. Past it, the report is refused as
 * `busy`, as when the queue is full.
 */
export function readerWaitMs(timeLimitMs: number): number {
  return READER_START_MS + Math.ceil(READER_QUEUE_MAX / READER_THREADS) * timeLimitMs;
}

/**
 * The V8 heap (old generation) of a thread, in MiB. Every 10 MiB message tried (a line of dots,
 * 125,000 links in HTML, base64 HTML, five nested messages) was read in 48; the bytes themselves
 * are outside the heap.
 */
export const READER_HEAP_MB = 128;
/** The young generation's share, in MiB: less than V8 would take, some 20 MiB off the largest reports' peak. */
const READER_YOUNG_HEAP_MB = 16;
/** Retry-After of a `busy` refusal, in seconds: about one read's time limit. */
export const READER_RETRY_AFTER_SECONDS = 5;
/** How much lower than the process the threads are scheduled (Linux's nice, per thread). */
export const READER_NICE_INCREMENT = 10;
// An idle thread ends after this long (starting one again costs some 50 ms).
const IDLE_MS = 60_000;

export interface ReportedMessageReader {
  /** The tokens and view of a reported message; throws ReportedMessageError whatever befalls the thread. */
  read(raw: Buffer, how: ReadHow): Promise<ReportedMessageReading>;
  /** Refuses the reads in progress (`busy`) and ends every thread. */
  close(): Promise<void>;
}

/** What a read looks for: the phish URLs, the account's simulation header, the envelope. */
export interface ReadHow {
  phishUrls: string[];
  headerName: string;
  envelope: 'direct' | 'forwarded';
}

export interface ReaderOptions {
  /** How long one message may take, counted from the moment a thread begins reading it. */
  timeLimitMs: number;
  log: FastifyBaseLogger;
  /** The worker's module (reports.thread.service's by default; tests give one that never yields). */
  entry?: URL;
}

/**
 * The worker's module. From the TypeScript sources (Vitest, `node --import tsx`) it is the one
 * beside this, loaded with tsx (a dev dependency, present wherever sources run); the build
 * bundles it as an entry of its own, dist/reports-thread.js (scripts/build-server.mjs).
 */
function defaultEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./reports.thread.service.ts', import.meta.url);
  return pathToFileURL(fromProjectRoot('dist', 'reports-thread.js'));
}

export function createReportedMessageReader(options: ReaderOptions): ReportedMessageReader {
  const entry = options.entry ?? defaultEntry();
  const filename = fileURLToPath(entry);
  // A build without the worker would refuse every report after a wait: refuse to start instead.
  if (!existsSync(filename)) throw new Error(`the reported-message worker is missing: ${filename}`);
  const pool = new Piscina<ReadTask, ReadOutcome>({
    filename: entry.href,
    minThreads: 0,
    maxThreads: READER_THREADS,
    idleTimeout: IDLE_MS,
    // Reading a message may take a core for seconds: the event loop's thread comes first, so that
    // everyone else's requests are answered at once even when every core is busy reading.
    niceIncrement: READER_NICE_INCREMENT,
    resourceLimits: {
      maxOldGenerationSizeMb: READER_HEAP_MB,
      maxYoungGenerationSizeMb: READER_YOUNG_HEAP_MB,
    },
    // Otherwise the thread inherits this process's flags (none that matter from the build).
    ...(filename.endsWith('.ts') ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  // A thread that fails outside a read (at start-up: its reports then wait and are refused as
  // busy). Its code and name only: the text of an error in a thread may quote a message.
  pool.on('error', (err: { code?: unknown; name?: unknown }) =>
    options.log.error({ code: err?.code, name: err?.name }, 'a reported-message reader thread failed'),
  );
  /** The reads in progress, by task id: what to do when the thread begins it, and how to stop it. */
  const inFlight = new Map<number, { began(): void; stop(reason: 'busy' | 'too_slow'): void }>();
  const waitMs = readerWaitMs(options.timeLimitMs);
  pool.on('message', (message: unknown) => {
    if (isReadingBegan(message)) inFlight.get(message.reportedMessageReadingBegan)?.began();
  });
  let lastId = 0;
  /** The small reports among those in flight (they have a queue of their own). */
  let smallInFlight = 0;

  async function read(raw: Buffer, how: ReadHow): Promise<ReportedMessageReading> {
    // A phish URL that is no http(s) URL is configuration, not the message: thrown here (a 500).
    phishBases(how.phishUrls);
    const small = raw.length <= SMALL_REPORT_BYTES;
    const large = inFlight.size - smallInFlight;
    if (
      small
        ? smallInFlight >= READER_THREADS + READER_SMALL_QUEUE_MAX
        : large >= READER_THREADS + READER_QUEUE_MAX
    ) {
      throw new ReportedMessageError('busy');
    }
    if (small) smallInFlight++;
    const id = ++lastId;
    const controller = new AbortController();
    let stoppedFor: 'busy' | 'too_slow' | undefined;
    const stop = (reason: 'busy' | 'too_slow') => {
      stoppedFor = reason;
      controller.abort();
    };
    let timer = setTimeout(() => stop('busy'), waitMs);
    const began = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop('too_slow'), options.timeLimitMs);
    };
    inFlight.set(id, { began, stop });
    // Moved to the thread, not copied, when the request's buffer is the message alone (a body of
    // more than a few KiB is); a slice of a larger buffer is copied first, so only it moves.
    const whole =
      raw.buffer instanceof ArrayBuffer && raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
    const bytes = whole ? new Uint8Array(raw.buffer as ArrayBuffer) : new Uint8Array(raw);
    try {
      const outcome = await pool.run(
        { id, raw: bytes, ...how, timeLimitMs: options.timeLimitMs },
        { signal: controller.signal, transferList: [bytes.buffer] },
      );
      if ('refused' in outcome) throw new ReportedMessageError(outcome.refused);
      return outcome.reading;
    } catch (err) {
      if (err instanceof ReportedMessageError) throw err;
      // Aborted: piscina ended the thread if it had begun, or took the task off the queue.
      if (stoppedFor) throw new ReportedMessageError(stoppedFor);
      throw threadFailure(err, options.log);
    } finally {
      clearTimeout(timer);
      inFlight.delete(id);
      if (small) smallInFlight--;
    }
  }

  return {
    read,
    async close() {
      for (const { stop } of inFlight.values()) stop('busy');
      await pool.destroy();
    },
  };
}

/** What a thread that ended under a read means for its report; nothing of the message is logged. */
function threadFailure(err: unknown, log: FastifyBaseLogger): ReportedMessageError {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new ReportedMessageError('too_much_memory');
  // The thread crashed, or the parser threw what it never should: a defect to look into, and a
  // message this server cannot read. The error's text is left out: it may quote the message.
  log.error({ code, name }, 'a reported-message reader thread failed while reading');
  return new ReportedMessageError('unreadable');
}
