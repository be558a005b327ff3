/**
 * Snapshots of JavaScript's built-ins, to prove a request changed none of them. What is kept: the
 * own property descriptors of Object, Function, Array, String, JSON and their prototypes, and of
 * every object or function those hold (so `Object.prototype.hasOwnProperty.call`, an own property
 * set on the `hasOwnProperty` function, is seen too).
 */

const ROOTS: Array<[string, object]> = [
  ['Object', Object],
  ['Function', Function],
  ['Array', Array],
  ['String', String],
  ['JSON', JSON],
  ['Object.prototype', Object.prototype],
  ['Function.prototype', Function.prototype],
  ['Array.prototype', Array.prototype],
  ['String.prototype', String.prototype],
];

type Descriptors = Map<PropertyKey, PropertyDescriptor>;
export type BuiltinsSnapshot = Map<object, { name: string; descriptors: Descriptors }>;

const descriptorsOf = (target: object): Descriptors =>
  new Map(Reflect.ownKeys(target).map((key) => [key, Reflect.getOwnPropertyDescriptor(target, key)!]));

const isReference = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

export function snapshotBuiltins(): BuiltinsSnapshot {
  const snapshot: BuiltinsSnapshot = new Map();
  for (const [name, root] of ROOTS) snapshot.set(root, { name, descriptors: descriptorsOf(root) });
  for (const [name, root] of ROOTS)
    for (const [key, descriptor] of descriptorsOf(root)) {
      const inner = descriptor.value;
      if (isReference(inner) && !snapshot.has(inner))
        snapshot.set(inner, { name: `${name}.${String(key)}`, descriptors: descriptorsOf(inner) });
    }
  return snapshot;
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set &&
  a.writable === b.writable &&
  a.enumerable === b.enumerable &&
  a.configurable === b.configurable;

/** The built-in properties added, removed or changed since the snapshot (`Object.prototype.hasOwnProperty.call`…). */
export function changedBuiltins(snapshot: BuiltinsSnapshot): string[] {
  const changed: string[] = [];
  for (const [target, { name, descriptors }] of snapshot) {
    const now = descriptorsOf(target);
    for (const key of new Set([...descriptors.keys(), ...now.keys()])) {
      const before = descriptors.get(key);
      const after = now.get(key);
      if (!before || !after || !sameDescriptor(before, after)) changed.push(`${name}.${String(key)}`);
    }
  }
  return changed;
}

/** Puts the snapshot's properties back (a test that found a change must not leave it to the next). */
export function restoreBuiltins(snapshot: BuiltinsSnapshot): void {
  for (const [target, { descriptors }] of snapshot) {
    for (const key of Reflect.ownKeys(target)) if (!descriptors.has(key)) Reflect.deleteProperty(target, key);
    for (const [key, descriptor] of descriptors) {
      const now = Reflect.getOwnPropertyDescriptor(target, key);
      if (!now || !sameDescriptor(now, descriptor)) Reflect.defineProperty(target, key, descriptor);
    }
  }
}

/**
 * Restores the built-ins before any other handler sees an uncaught exception: a changed built-in
 * (`hasOwnProperty.call` no longer a function) breaks the logger and the test runner's own error
 * handling, which would end the test worker instead of reporting the failure. Returns the undo.
 */
export function restoreBuiltinsOnUncaughtException(snapshot: BuiltinsSnapshot): () => void {
  const restore = () => restoreBuiltins(snapshot);
  process.prependListener('uncaughtException', restore);
  return () => process.off('uncaughtException', restore);
}
