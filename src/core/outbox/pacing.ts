/** What the queue workers (mail, webhooks) share: bounded concurrency and an idle wait that wakes early. */

/** Runs `fn` over `items`, at most `limit` at a time, in order of start. */
export async function eachConcurrently<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runner = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}

/** A worker's wait between polls, which `wake()` ends early (something was just queued, or it stops). */
export class IdleWait {
  #finish: (() => void) | undefined;

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        this.#finish = undefined;
        resolve();
      };
      timer = setTimeout(finish, ms);
      this.#finish = finish;
    });
  }

  wake(): void {
    this.#finish?.();
  }
}
