import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, CsvFile, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { sendCsvFile } from '../../../core/http/csv-download.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import {
  CreateEmployeeBody,
  EmployeeIdParams,
  EmployeeList,
  EmployeeListQuery,
  EmployeeWithGroups,
  ImportBody,
  ImportResponse,
  UpdateEmployeeBody,
} from './employees.admin-schemas.js';
import { exportEmployees } from './employees.export.service.js';
import { importEmployees } from './employees.import.service.js';
import { presentAdminEmployee, presentEmployee, presentEmployeeWithGroups } from './employees.presenter.js';
import { Employee } from './employees.schemas.js';
import {
  createEmployee,
  deleteEmployee,
  getEmployeeWithGroups,
  searchEmployees,
  updateEmployee,
} from './employees.service.js';

/**
 * The admin API's employee routes, relative to `/admin/api/accounts/:accountId` (whose hooks
 * have checked the session, the CSRF token and the account: `accountOf(request).accountId`).
 */
const tags = ['Employees'];

export const employeesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/employees',
    {
      config: { adminPermission: 'directory:read' },
      schema: {
        tags,
        summary: 'Employees, searched, sorted (by last name unless told) and paged',
        params: AccountParams,
        querystring: EmployeeListQuery,
        response: responses({ 200: EmployeeList }),
      },
    },
    async (request) =>
      listEnvelope(
        await searchEmployees(
          app.db,
          accountOf(request).accountId,
          request.query,
          listWindow(request.query),
          accountOf(request).groups,
        ),
        presentAdminEmployee,
      ),
  );

  app.post(
    '/employees',
    {
      config: { adminPermission: 'directory:write', everyGroup: true },
      schema: {
        tags,
        summary: 'Creates an employee; 409 when the address is taken',
        params: AccountParams,
        body: CreateEmployeeBody,
        response: responses({ 201: Employee }),
      },
    },
    async (request, reply) => {
      const employee = await createEmployee(app.db, accountOf(request).accountId, request.body);
      return reply.status(201).send(presentEmployee(employee));
    },
  );

  app.post(
    '/employees/import',
    {
      config: { adminPermission: 'directory:write', everyGroup: true },
      schema: {
        tags,
        summary: 'Checks (`dry_run`) or creates up to `limits.import_rows` employees; one result per row',
        params: AccountParams,
        body: ImportBody,
        response: responses({ 200: ImportResponse }),
      },
    },
    async (request) =>
      importEmployees(app.db, accountOf(request).accountId, request.body.rows, {
        dryRun: request.body.dry_run ?? false,
      }),
  );

  app.get(
    '/employees/export.csv',
    {
      config: { adminPermission: 'directory:read' },
      schema: {
        tags,
        summary:
          "Every employee as CSV: `id,first_name,last_name,email,created_at`; cells starting with `= + - @` get a leading `'`",
        params: AccountParams,
        response: responses({ 200: CsvFile }),
      },
    },
    async (request, reply) =>
      sendCsvFile(
        reply,
        'employees.csv',
        exportEmployees(app.db, accountOf(request).accountId, undefined, accountOf(request).groups),
      ),
  );

  app.get(
    '/employees/:employeeId',
    {
      config: { adminPermission: 'directory:read' },
      schema: {
        tags,
        summary: 'One employee and their groups',
        params: EmployeeIdParams,
        response: responses({ 200: EmployeeWithGroups }),
      },
    },
    async (request) =>
      presentEmployeeWithGroups(
        await getEmployeeWithGroups(app.db, accountOf(request).accountId, request.params.employeeId),
      ),
  );

  app.patch(
    '/employees/:employeeId',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Changes the fields sent, with the create rules; 409 on a taken address',
        params: EmployeeIdParams,
        body: UpdateEmployeeBody,
        response: responses({ 200: Employee }),
      },
    },
    async (request) =>
      presentEmployee(
        await updateEmployee(app.db, accountOf(request).accountId, request.params.employeeId, request.body),
      ),
  );

  app.delete(
    '/employees/:employeeId',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Deletes an employee, who leaves every group (their counts and ETags move)',
        params: EmployeeIdParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteEmployee(app.db, accountOf(request).accountId, request.params.employeeId);
      return reply.status(204).send();
    },
  );
};
