import type { Db } from '../db/database.js';
import { parseId } from '../ids.js';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

export interface CliContext {
  io: Io;
  /** Opens (and migrates) the database on first use. */
  db(): Promise<Db>;
}

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {}

export function idOption(name: string, value: string | undefined): number {
  const id = value === undefined ? null : parseId(value);
  if (id === null) throw new UsageError(`--${name} must be a positive integer id, got "${value ?? ''}"`);
  return id;
}

export function positiveInteger(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Prints one JSON object with --json, else the human lines. */
export function print(io: Io, json: boolean | undefined, object: object, human: () => string): void {
  io.stdout(json ? `${JSON.stringify(object)}\n` : `${human()}\n`);
}
