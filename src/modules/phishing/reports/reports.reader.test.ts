import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createReportedMessageReader,
  READER_QUEUE_MAX,
  READER_SMALL_QUEUE_MAX,
  READER_THREADS,
  type ReportedMessageReader,
  SMALL_REPORT_BYTES,
} from './reports.reader.service.js';

// The reader with a worker that misbehaves on demand (test/helpers/misbehaving-report-worker.ts).
const MISBEHAVING = new URL('../../../../test/helpers/misbehaving-report-worker.ts', import.meta.url);
const PHISH = ['https://phish.example.com'];
const HOW = { phishUrls: PHISH, headerName: 'X-Vigil-Simulation', envelope: 'direct' as const };

const logs: string[] = [];
const log = pino(
  new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  }),
) as unknown as FastifyBaseLogger;

let reader: ReportedMessageReader;
afterEach(() => reader?.close());

function open(timeLimitMs: number) {
  reader = createReportedMessageReader({ timeLimitMs, log, entry: MISBEHAVING });
  return reader;
}

/** A message the worker reads as it should, and the token it carries. */
function wellBehaved() {
  const token = randomBytes(24).toString('base64url');
  return { token, raw: Buffer.from(`From: a@example.com\r\nX-Vigil-Simulation: ${token}\r\n\r\nHello\r\n`) };
}

async function expectReadable(reader: ReportedMessageReader) {
  const { token, raw } = wellBehaved();
  expect((await reader.read(raw, HOW)).tokens).toEqual([token]);
}

const refusal = (reading: Promise<unknown>) =>
  reading.then(
    () => {
      throw new Error('read');
    },
    (err: unknown) => err,
  );

describe('the reported-message reader', () => {
  it('reads a message in a thread', async () => {
    await expectReadable(open(30_000));
  });

  it('ends a thread stuck past the time limit (too slow), and reads the next messages', async () => {
    // Long enough for a well-behaved message on a busy machine (the threads run at a lower
    // priority: 300 ms was too short for one while several suites ran), short for a test.
    const reader = open(3_000);
    // One stuck message per thread: a thread left running would hold the next message in the queue.
    const stuck = Array.from({ length: READER_THREADS }, () =>
      refusal(reader.read(Buffer.from('SPIN'), HOW)),
    );
    for (const err of await Promise.all(stuck))
      expect(err).toMatchObject({ reason: 'too_slow', status: 400 });
    await expectReadable(reader);
  });

  it('ends a thread past its memory limit (too much memory), and reads the next message', async () => {
    const reader = open(30_000);
    expect(await refusal(reader.read(Buffer.from('HOG\n'), HOW))).toMatchObject({
      reason: 'too_much_memory',
      status: 400,
    });
    await expectReadable(reader);
  });

  it('refuses a message whose thread ended (unreadable), logging nothing of it', async () => {
    const reader = open(30_000);
    const secret = `EXIT ${randomBytes(8).toString('hex')}`;
    expect(await refusal(reader.read(Buffer.from(secret), HOW))).toMatchObject({ reason: 'unreadable' });
    expect(logs.join('')).toContain('reader thread failed');
    expect(logs.join('')).not.toContain(secret.slice(5));
    await expectReadable(reader);
  });

  it('refuses at once past the queue (busy, 503), large and small reports each past their own; closing refuses the reads in progress', async () => {
    const reader = open(60_000);
    // Large reports that never end fill the threads and the large queue: one more large one is
    // refused, while a burst of small ones still waits in a queue of its own, up to its length.
    const large = Buffer.concat([Buffer.from('SPIN'), Buffer.alloc(SMALL_REPORT_BYTES)]);
    const inFlight = Array.from({ length: READER_THREADS + READER_QUEUE_MAX }, () =>
      refusal(reader.read(large, HOW)),
    );
    const started = Date.now();
    expect(await refusal(reader.read(large, HOW))).toMatchObject({ reason: 'busy', status: 503 });
    inFlight.push(
      ...Array.from({ length: READER_THREADS + READER_SMALL_QUEUE_MAX }, () =>
        refusal(reader.read(Buffer.from('SPIN'), HOW)),
      ),
    );
    expect(await refusal(reader.read(wellBehaved().raw, HOW))).toMatchObject({
      reason: 'busy',
      status: 503,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    await reader.close();
    for (const err of await Promise.all(inFlight)) expect(err).toMatchObject({ reason: 'busy' });
  });
});
