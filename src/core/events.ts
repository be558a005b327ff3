import type { Db } from './db/database.js';

/**
 * Domain events: one owner emits, the others subscribe. Each owner context declares the events
 * it emits by augmenting this map (type → payload) in its `<module>.events.model.ts`:
 *
 *   declare module '../../../core/events.js' {
 *     interface DomainEvents { 'employee.deleted': { accountId: number; employeeId: number; at: number } }
 *   }
 *
 * Subscribers run INSIDE the emitting transaction, one after the other, in the order
 * src/subscriptions.ts registers them: atomicity is what a direct call gives, and a subscriber
 * that throws aborts the change (that is how a refusal works).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each owner context
export interface DomainEvents {}

/**
 * What is known of a watched event before its change (see `watch`), for the events that have
 * one (a group's membership change: the account and the group); augmented like DomainEvents.
 * An event without an entry here is watched with its whole payload.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each owner context
export interface DomainEventHeads {}

export type EventType = keyof DomainEvents;
export type EventHead<K extends EventType> = K extends keyof DomainEventHeads
  ? DomainEventHeads[K]
  : DomainEvents[K];

/** Handles one event inside the emitting transaction. */
export type Handler<K extends EventType> = (trx: Db, event: DomainEvents[K]) => Promise<void>;

/**
 * A subscriber that looks before the change: it may read what it needs (the state before, or
 * whether anyone downstream cares) and returns its handler, or nothing when the change does not
 * concern it. When no subscriber of a type returns a handler, the owner may skip the work the
 * event would need (a RETURNING clause, a transaction of its own).
 */
export type Watcher<K extends EventType> = (db: Db, head: EventHead<K>) => Promise<Handler<K> | undefined>;

type Entry = { name: string; watcher: Watcher<EventType> };
const subscribers = new Map<EventType, Entry[]>();
const names = new Set<string>();

/**
 * Subscribes `handler` to `type` under a unique `name` (a second subscription of one name is
 * ignored, so loading the subscriptions twice registers nothing new).
 */
export function subscribe<K extends EventType>(type: K, name: string, handler: Handler<K>): void {
  watchEvents(type, name, async () => handler);
}

/** Subscribes a watcher (see Watcher) to `type` under a unique `name`; idempotent like subscribe. */
export function watchEvents<K extends EventType>(type: K, name: string, watcher: Watcher<K>): void {
  const key = `${String(type)}:${name}`;
  if (names.has(key)) return;
  names.add(key);
  const list = subscribers.get(type) ?? [];
  list.push({ name, watcher: watcher as unknown as Watcher<EventType> });
  subscribers.set(type, list);
}

/** The names of the subscribers of `type`, in the order they run (tests and docs read it). */
export function subscribersOf(type: EventType): string[] {
  return (subscribers.get(type) ?? []).map((entry) => entry.name);
}

/** Emits an event: every subscriber of its type runs, in order, inside `trx`. */
export async function emit<K extends EventType>(trx: Db, type: K, event: DomainEvents[K]): Promise<void> {
  const handle = await watch(trx, type, event as unknown as EventHead<K>);
  if (handle) await handle(trx, event);
}

/**
 * Asks the subscribers of `type` before a change (inside its transaction, or before it when the
 * change may run without one). Returns the function that emits the event after the change, or
 * undefined when no subscriber wants it.
 */
export async function watch<K extends EventType>(
  db: Db,
  type: K,
  head: EventHead<K>,
): Promise<Handler<K> | undefined> {
  const entries = subscribers.get(type);
  if (!entries) return undefined;
  const handlers: Handler<K>[] = [];
  for (const entry of entries) {
    const handler = await (entry.watcher as unknown as Watcher<K>)(db, head);
    if (handler) handlers.push(handler);
  }
  if (handlers.length === 0) return undefined;
  if (handlers.length === 1) return handlers[0];
  return async (trx, event) => {
    for (const handler of handlers) await handler(trx, event);
  };
}
