/** A path id as the API accepts it: a positive decimal integer below 2^53, else null (→ not found). */
export function parseId(value: string | number): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (!/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}
