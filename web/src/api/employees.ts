// Employees of an account, their CSV import and export (docs/admin-api.md § Employees).
import { apiUrl, type ListPage, type ListParams, request } from './client';

export interface Employee {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

export interface EmployeeDetail extends Employee {
  groups: { id: number; name: string }[];
}

export type EmployeeSort = 'last_name' | 'first_name' | 'email' | 'created_at';

export interface EmployeeListParams extends ListParams {
  sort?: EmployeeSort;
  order?: 'asc' | 'desc';
}

export interface EmployeeInput {
  first_name: string;
  last_name: string;
  email: string;
}

export type ImportStatus = 'created' | 'would_create' | 'exists' | 'invalid' | 'duplicate';

export interface ImportResult {
  status: ImportStatus;
  id?: number;
  errors?: Record<string, string[]>;
}

export interface ImportAnswer {
  created: number;
  results: ImportResult[];
}

/** The most rows one import request takes. */
export const IMPORT_CHUNK = 1000;

const base = (accountId: number) => `/accounts/${accountId}/employees`;

export function listEmployees(accountId: number, params: EmployeeListParams, signal?: AbortSignal) {
  return request<ListPage<Employee>>(base(accountId), {
    query: { ...params },
    ...(signal ? { signal } : {}),
  });
}

export function getEmployee(accountId: number, employeeId: number): Promise<EmployeeDetail> {
  return request(`${base(accountId)}/${employeeId}`);
}

export function createEmployee(accountId: number, input: EmployeeInput): Promise<Employee> {
  return request(base(accountId), { method: 'POST', body: input });
}

export function updateEmployee(accountId: number, employeeId: number, input: Partial<EmployeeInput>) {
  return request<Employee>(`${base(accountId)}/${employeeId}`, { method: 'PATCH', body: input });
}

export function deleteEmployee(accountId: number, employeeId: number): Promise<void> {
  return request(`${base(accountId)}/${employeeId}`, { method: 'DELETE' });
}

/** At most IMPORT_CHUNK rows; `dry_run` checks without creating. */
export function importEmployees(accountId: number, rows: EmployeeInput[], dryRun: boolean) {
  return request<ImportAnswer>(`${base(accountId)}/import`, {
    method: 'POST',
    body: { rows, dry_run: dryRun },
  });
}

/** The URL of the CSV export (a download, opened by the browser itself). */
export function exportUrl(accountId: number): string {
  return apiUrl(`${base(accountId)}/export.csv`);
}
