import type { FastifyReply } from 'fastify';

/**
 * Sends text that already is the JSON of the route's response (the database built it, see
 * presentGroupDetail). The typed reply only accepts the schema's object type, hence the cast:
 * this text is that object, serialized once instead of twice.
 */
export function sendJsonText<R extends Pick<FastifyReply, 'type' | 'send'>>(reply: R, json: string): R {
  reply.type('application/json; charset=utf-8');
  reply.send(json as never);
  return reply;
}
