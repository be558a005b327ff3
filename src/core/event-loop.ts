import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the requests waiting on this process run before the caller goes on: between two slices
 * of a long piece of work (a 100,000-id replacement, a large answer), so none holds the event
 * loop for more than a few milliseconds.
 */
export function yieldToOthers(): Promise<void> {
  return nextTurn();
}
