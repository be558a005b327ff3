import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A large answer (a 100,000-member group: 10 MiB of JSON, its chunks, their buffers) leaves its
 * garbage in V8's old generation, which V8 collects only when a limit that grows with the heap
 * is reached: a series of 100,000-member replacements took the server from 170 to 254 MiB of
 * RSS (320 after other loads) before it did. When a large answer has been sent and the heap has
 * grown by more than 32 MiB since the last collection, the process asks V8 for a full one (about
 * 10 ms): RSS stays near 200 MiB. `gc` is reached through V8's
 * `--expose-gc`, set here at run time.
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const GROWTH_BYTES = 32 * 1024 * 1024;
let heapAfterCollection = 0;

/** Runs `send` (a large answer being sent), then collects the garbage if it has piled up. */
export async function sendingLargeAnswer<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } finally {
    if (process.memoryUsage().heapUsed > heapAfterCollection + GROWTH_BYTES) {
      collect();
      heapAfterCollection = process.memoryUsage().heapUsed;
    }
  }
}
