import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A very large answer (a 100,000-member group: 10 MiB of JSON, its chunks, their buffers) leaves
 * its garbage in V8's old generation, which V8 collects only when a limit that grows with the
 * heap is reached: a series of 100,000-member replacements took the server from 170 to 254 MiB
 * of RSS (320 after other loads) before it did. After an answer of at least 4 MiB, when the heap
 * has grown by more than 16 MiB since the last collection, the process asks V8 for a full one
 * (tens of ms, against the few hundred the answer took): RSS stays near 200–230 MiB. With 32 MiB,
 * ten reads of a 100,000-member group, two at a time, peaked at 279 to 322 MiB from run to run
 * (the collection fell before or after a pair); with 16 MiB, 270 to 273 (test/faults.test.ts,
 * three runs each, on a server whose routes of issue 22 start it 5 MiB larger). Smaller
 * answers (a 10,000-member group is 1 MiB) leave young garbage that V8's scavenges take cheaply;
 * collecting after them cost 50 % more CPU per request. `gc` is reached through V8's
 * `--expose-gc`, set here at run time.
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const LARGE_ANSWER_BYTES = 4 * 1024 * 1024;
const GROWTH_BYTES = 16 * 1024 * 1024;
let heapAfterCollection = 0;

/** Called once an answer of `bytes` has been sent: collects the garbage a very large one piled up. */
export function collectAfterLargeAnswer(bytes: number): void {
  if (bytes < LARGE_ANSWER_BYTES) return;
  if (process.memoryUsage().heapUsed <= heapAfterCollection + GROWTH_BYTES) return;
  collect();
  heapAfterCollection = process.memoryUsage().heapUsed;
}
