/** The tables of the service's own secrets. */

export interface AppSecretsTable {
  /** What the secret is for, e.g. "cookie". */
  name: string;
  value: string;
  created_at: number;
}

export interface ServiceTables {
  app_secrets: AppSecretsTable;
}
