import { type Compilable, CompiledQuery } from 'kysely';
import { type Db, type Dialect, dialectOf } from './database.js';
import { registerNamedStatement } from './postgres-pool.js';

/**
 * A query built and compiled once (per dialect) instead of on every request, for the hot paths.
 * Building and compiling a Kysely query costs more than SQLite takes to run it; with `prepared`
 * the repository still writes the query with Kysely, with named parameters:
 *
 *   const byEmail = prepared((db, p: { accountId: number; email: string }) =>
 *     db.selectFrom('employees').selectAll().where('account_id', '=', p.accountId) …);
 *   const rows = await byEmail.execute(db, { accountId, email });
 *
 * Each parameter must be used as a value (a `where` operand, a `limit`), not to pick the shape of
 * the query. SQLite keeps the statement prepared per connection; PostgreSQL prepares it once per
 * connection as a named statement.
 */
export interface Prepared<P, R> {
  /** The statement with these parameters, to run as it is or inside a larger one (a CTE). */
  compiled(db: Db, params: P): CompiledQuery<R>;
  execute(db: Db, params: P): Promise<R[]>;
  executeTakeFirst(db: Db, params: P): Promise<R | undefined>;
}

/** Stands for a parameter while the query is compiled; replaced by its value on every run. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Template {
  sql: string;
  /** For each position: the parameter's name, or a constant the query itself holds. */
  slots: Array<{ name: string } | { value: unknown }>;
}

export function prepared<P extends Record<string, unknown>, R>(
  build: (db: Db, params: P) => Compilable<R>,
): Prepared<P, R> {
  const templates: Partial<Record<Dialect, Template>> = {};

  const compile = (db: Db): Template => {
    const dialect = dialectOf(db);
    const cached = templates[dialect];
    if (cached) return cached;
    const placeholders = new Proxy({} as P, { get: (_t, name) => new Placeholder(String(name)) });
    const compiled = build(db, placeholders).compile();
    const template: Template = {
      sql: compiled.sql,
      slots: compiled.parameters.map((p) => (p instanceof Placeholder ? { name: p.name } : { value: p })),
    };
    if (dialect === 'postgres') registerNamedStatement(template.sql);
    templates[dialect] = template;
    return template;
  };

  const compiled = (db: Db, params: P): CompiledQuery<R> => {
    const { sql, slots } = compile(db);
    return CompiledQuery.raw(
      sql,
      slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value)),
    );
  };
  const execute = async (db: Db, params: P): Promise<R[]> =>
    (await db.executeQuery<R>(compiled(db, params))).rows;

  return {
    compiled,
    execute,
    executeTakeFirst: async (db, params) => (await execute(db, params))[0],
  };
}
