import type { FactorRow } from './mfa.repository.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A factor as its owner sees it: its name and kind, never its secret or key. */
export function presentFactor(row: FactorRow) {
  return {
    id: Number(row.id),
    kind: row.kind,
    name: row.name,
    created_at: new Date(Number(row.created_at)).toISOString(),
    last_used_at: iso(row.last_used_at),
  };
}
