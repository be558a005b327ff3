import type { SelectQueryBuilder } from 'kysely';

/** How many rows a query selects (`count(*)`), as a number in both dialects (PostgreSQL sends a bigint as text). */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // The generic selection hides `n` from the compiler; it is there.
  return Number((row as unknown as { n: number | string }).n);
}
