import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Answers a CSV file as a download named `filename`, never stored by a cache (it lists people). */
export function sendCsvFile(reply: FastifyReply, filename: string, csv: Readable) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'no-store')
    .send(csv);
}
