import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server that accepts every message and counts them, in its own process (so it
 * does not share the measured worker's event loop). Started by bench/mail-send.ts over IPC:
 * sends `{port}` once listening, answers `'count'` with `{count}`.
 */
let count = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      count++;
      callback(null, 'Queued');
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (message) => {
  if (message === 'count') process.send?.({ count });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
