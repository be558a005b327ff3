import { expect } from 'vitest';
import { VigilError } from '../../src/index.js';

/** The `VigilError` a call rejected with (fails the test when it resolved or threw something else). */
export async function caught(promise: Promise<unknown>): Promise<VigilError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VigilError);
  return err as VigilError;
}
