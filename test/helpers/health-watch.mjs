// Asks `GET <base>/healthz` again and again, one request at a time, from a process of its own (so
// that the test process's own work never delays a request), and tells its parent, when asked, the
// slowest answer and any failure since the start. Started by test/helpers/hostile.ts.
import http from 'node:http';

const base = process.argv[2];
const PAUSE_MS = 20;
const TIMEOUT_MS = 5000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

let slowestMs = 0;
let slowestAt = '';
let answered = 0;
const failures = [];
let stopping = false;

function ask() {
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.get(`${base}/healthz`, { agent, timeout: TIMEOUT_MS }, (response) => {
      response.resume();
      response.on('end', () => {
        const ms = performance.now() - started;
        if (response.statusCode !== 200) failures.push(`status ${response.statusCode}`);
        else answered++;
        if (ms > slowestMs) {
          slowestMs = ms;
          slowestAt = new Date().toISOString();
        }
        resolve();
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on('error', (err) => {
      failures.push(err.message);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      resolve();
    });
  });
}

process.on('message', (message) => {
  if (message === 'report') process.send({ slowestMs, slowestAt, answered, failures: failures.slice(0, 20) });
  if (message === 'stop') stopping = true;
});

while (!stopping) {
  await ask();
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
agent.destroy();
process.disconnect?.();
