import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import { yieldToOthers } from '../event-loop.js';
import { collectAfterLargeAnswer } from './memory.js';

/** Up to this much of an answer is gathered and sent in one piece; a longer one streams. */
const ONE_PIECE_BYTES = 64 * 1024;
/** A stream that the client takes as fast as it is written lets other requests run this often. */
const TURN_BYTES = 512 * 1024;

/**
 * Sends an answer whose JSON text is built piece by piece (the database made the pieces, see
 * groups.presenter): a short answer as one text, a long one as a stream that takes the next
 * piece only when the client has taken the last (so a 10 MiB answer is never whole in memory).
 * Resolves once the client has the whole answer, or went away; the caller's snapshot can end
 * then. The typed reply only accepts the schema's object type, hence the casts: this text is
 * that object, serialized once instead of twice.
 */
export async function sendJsonPieces<R extends FastifyReply>(
  reply: R,
  pieces: AsyncIterable<string>,
): Promise<R> {
  reply.type('application/json; charset=utf-8');
  const iterator = pieces[Symbol.asyncIterator]();
  const head: string[] = [];
  let size = 0;
  while (size <= ONE_PIECE_BYTES) {
    const next = await iterator.next();
    if (next.done) return reply.send(head.join('') as never) as R;
    head.push(next.value);
    size += next.value.length;
  }
  const rest = { [Symbol.asyncIterator]: () => iterator };
  const body = Readable.from(
    (async function* () {
      yield* head;
      // Pieces already in memory would otherwise all be written in one turn of the event loop.
      let sinceTurn = 0;
      for await (const piece of rest) {
        yield piece;
        size += piece.length;
        sinceTurn += piece.length;
        if (sinceTurn >= TURN_BYTES) {
          sinceTurn = 0;
          await yieldToOthers();
        }
      }
    })(),
    { objectMode: false },
  );
  reply.send(body as never);
  await finished(body).catch(() => {});
  collectAfterLargeAnswer(size);
  return reply;
}
