import type { JsonBody, QueryParams, Success } from '../operations.js';
import { PageIterator } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';

export type Employee = Success<'getEmployee'>;
export type EmployeeListParams = QueryParams<'listEmployees'>;
export type NewEmployee = JsonBody<'createEmployee'>;
export type EmployeeChanges = JsonBody<'updateEmployee'>;
export type BulkEmployeeRow = JsonBody<'bulkUpsertEmployees'>['employees'][number];
export type BulkEmployeesResult = Success<'bulkUpsertEmployees'>;
export type DeletedListParams = QueryParams<'listDeletedEmployees'>;
export type DeletedItem = Success<'listDeletedEmployees'>['results'][number];

/** `client.employees`: the account's employees. */
export class Employees {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every employee (ordered by id), fetched page by page as you iterate: `for await (const e of client.employees.list())`. */
  list(params: EmployeeListParams = {}): PageIterator<Employee, EmployeeListParams> {
    return new PageIterator((query) => this.page(query), params);
  }

  /** One page of employees (`page` from 1, `page_size` up to 1000; `email` finds one by address). */
  async page(params: EmployeeListParams = {}, options?: RequestOptions) {
    return (await this.#t.call('listEmployees', { query: params }, options)).data;
  }

  /** The employee; `employee_not_found` when the account has none with this id. */
  async get(id: number, options?: RequestOptions): Promise<Employee> {
    return (await this.#t.call('getEmployee', { path: { employee_id: id } }, options)).data;
  }

  /** The employee with this address (compared case-insensitively), or null. */
  async findByEmail(email: string, options?: RequestOptions): Promise<Employee | null> {
    return (await this.page({ email }, options)).results[0] ?? null;
  }

  /** Creates an employee; `email_taken` when the account has one with this address. */
  async create(body: NewEmployee, options?: RequestOptions): Promise<Employee> {
    return (await this.#t.call('createEmployee', { body }, options)).data;
  }

  /** Changes the fields given (names, address); the others stay. */
  async update(id: number, body: EmployeeChanges, options?: RequestOptions): Promise<Employee> {
    return (await this.#t.call('updateEmployee', { path: { employee_id: id }, body }, options)).data;
  }

  /** Offboards the employee: gone from every list and group; their training record is kept, anonymised. */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await this.#t.call('deleteEmployee', { path: { employee_id: id } }, options);
  }

  /**
   * Creates or updates up to 10,000 people by address in one request; a result per row, in
   * order (`created`, `updated`, `unchanged` or `error` with its reason). Safe to retry.
   */
  async bulkUpsert(rows: BulkEmployeeRow[], options?: RequestOptions): Promise<BulkEmployeesResult> {
    return (await this.#t.call('bulkUpsertEmployees', { body: { employees: rows } }, options)).data;
  }

  /** The ids of employees deleted at or after `since` (oldest first), page by page as you iterate. */
  listDeleted(params: DeletedListParams = {}): PageIterator<DeletedItem, DeletedListParams> {
    return new PageIterator(
      async (query) => (await this.#t.call('listDeletedEmployees', { query })).data,
      params,
    );
  }
}
