import cluster from 'node:cluster';
import { RateLimiterMemory } from 'rate-limiter-flexible';

/**
 * Rate-limit counts of a cluster (WEB_CONCURRENCY > 1) kept by its primary, so an instance's
 * budget is one budget however many worker processes answer: exact, as in one process.
 * rate-limiter-flexible's own cluster limiter sends one IPC message per request; here a worker
 * sends the counts asked for in one turn of its event loop as one message and gets one answer,
 * which costs the primary (and the worker) a fraction of the CPU under load.
 */

const MESSAGE = 'vigil:budgets';

export interface Count {
  consumedPoints: number;
  msBeforeNext: number;
}

interface Request {
  type: typeof MESSAGE;
  prefix: string;
  windowSeconds: number;
  batch: number;
  ids: string[];
}

interface Answer {
  type: typeof MESSAGE;
  batch: number;
  counts?: Array<[number, number]>;
}

/** In the primary: counts the workers' requests, one fixed window per prefix. */
export function countBudgetsForWorkers(): void {
  const counters = new Map<string, RateLimiterMemory>();
  cluster.on('message', (worker, message: Request) => {
    if (message?.type !== MESSAGE) return;
    const key = `${message.prefix}:${message.windowSeconds}`;
    let counter = counters.get(key);
    if (!counter) {
      counter = new RateLimiterMemory({
        points: Number.MAX_SAFE_INTEGER,
        duration: message.windowSeconds,
        keyPrefix: message.prefix,
      });
      counters.set(key, counter);
    }
    const counting = counter;
    Promise.all(message.ids.map((id) => counting.consume(id, 1))).then(
      (results) => {
        const counts = results.map((r) => [r.consumedPoints, r.msBeforeNext] as [number, number]);
        if (worker.isConnected())
          worker.send({ type: MESSAGE, batch: message.batch, counts } satisfies Answer);
      },
      () => worker.isConnected() && worker.send({ type: MESSAGE, batch: message.batch } satisfies Answer),
    );
  });
}

interface Waiting {
  resolve(count: Count): void;
  reject(err: Error): void;
}

/** In a worker: one counter of the primary's (a prefix and window); `consume` batches per turn. */
export class PrimaryCounter {
  private queue: Array<{ id: string } & Waiting> = [];
  private flushing = false;
  private static batches = new Map<number, Waiting[]>();
  private static nextBatch = 0;
  private static listening = false;

  constructor(
    private readonly prefix: string,
    private readonly windowSeconds: number,
    private readonly timeoutMs = 1000,
  ) {
    if (!PrimaryCounter.listening) {
      PrimaryCounter.listening = true;
      process.on('message', (message: Answer) => {
        if (message?.type === MESSAGE) PrimaryCounter.settle(message);
      });
    }
  }

  consume(id: string): Promise<Count> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushing = false;
    const queue = this.queue;
    this.queue = [];
    const batch = ++PrimaryCounter.nextBatch;
    PrimaryCounter.batches.set(batch, queue);
    const fail = (err: Error) => {
      if (PrimaryCounter.batches.delete(batch)) for (const w of queue) w.reject(err);
    };
    const timer = setTimeout(() => fail(new Error('the primary did not count in time')), this.timeoutMs);
    timer.unref();
    const request: Request = {
      type: MESSAGE,
      prefix: this.prefix,
      windowSeconds: this.windowSeconds,
      batch,
      ids: queue.map((w) => w.id),
    };
    process.send?.(request, undefined, undefined, (err) => err && fail(err));
  }

  private static settle(answer: Answer): void {
    const waiting = PrimaryCounter.batches.get(answer.batch);
    if (!waiting) return;
    PrimaryCounter.batches.delete(answer.batch);
    waiting.forEach((w, i) => {
      const count = answer.counts?.[i];
      if (count) w.resolve({ consumedPoints: count[0], msBeforeNext: count[1] });
      else w.reject(new Error('the primary could not count'));
    });
  }
}
