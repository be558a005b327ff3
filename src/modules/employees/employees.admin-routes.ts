import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listEnvelope, listWindow } from '../../admin/list.js';
import {
  EmployeeIdParams,
  EmployeeList,
  EmployeeListQuery,
  EmployeeWithGroups,
  ImportBody,
  ImportResponse,
  UpdateEmployeeBody,
} from './employees.admin-schemas.js';
import { exportEmployees } from './employees.export.js';
import { importEmployees } from './employees.import.js';
import { presentEmployee, presentEmployeeWithGroups } from './employees.presenter.js';
import { CreateEmployeeBody, Employee } from './employees.schemas.js';
import {
  createEmployee,
  deleteEmployee,
  getEmployeeWithGroups,
  searchEmployees,
  updateEmployee,
} from './employees.service.js';

/**
 * The admin API's employee routes, relative to `/admin/api/accounts/:accountId` (whose hooks
 * have checked the session, the CSRF token and the account: `request.admin.accountId`).
 */
export const employeesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/employees',
    { schema: { hide: true, querystring: EmployeeListQuery, response: { 200: EmployeeList } } },
    async (request) => {
      const { search, sort, order } = request.query;
      const page = await searchEmployees(
        app.db,
        request.admin.accountId,
        { search, sort, order },
        listWindow(request.query),
      );
      return listEnvelope(page, presentEmployee);
    },
  );

  app.post(
    '/employees',
    { schema: { hide: true, body: CreateEmployeeBody, response: { 201: Employee } } },
    async (request, reply) => {
      const employee = await createEmployee(app.db, request.admin.accountId, request.body);
      return reply.status(201).send(presentEmployee(employee));
    },
  );

  app.post(
    '/employees/import',
    { schema: { hide: true, body: ImportBody, response: { 200: ImportResponse } } },
    async (request) =>
      importEmployees(app.db, request.admin.accountId, request.body.rows, {
        dryRun: request.body.dry_run ?? false,
      }),
  );

  app.get('/employees/export.csv', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="employees.csv"')
      .header('Cache-Control', 'no-store')
      .send(exportEmployees(app.db, request.admin.accountId)),
  );

  app.get(
    '/employees/:employeeId',
    { schema: { hide: true, params: EmployeeIdParams, response: { 200: EmployeeWithGroups } } },
    async (request) =>
      presentEmployeeWithGroups(
        await getEmployeeWithGroups(app.db, request.admin.accountId, request.params.employeeId),
      ),
  );

  app.patch(
    '/employees/:employeeId',
    {
      schema: { hide: true, params: EmployeeIdParams, body: UpdateEmployeeBody, response: { 200: Employee } },
    },
    async (request) =>
      presentEmployee(
        await updateEmployee(app.db, request.admin.accountId, request.params.employeeId, request.body),
      ),
  );

  app.delete(
    '/employees/:employeeId',
    { schema: { hide: true, params: EmployeeIdParams } },
    async (request, reply) => {
      await deleteEmployee(app.db, request.admin.accountId, request.params.employeeId);
      return reply.status(204).send();
    },
  );
};
