import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { absoluteUrl } from '../../../core/http/links.js';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { registerDeletedList } from '../sync/sync.routes.js';
import { bulkUpsertEmployees } from './employees.bulk.commands.js';
import { BULK_BODY_LIMIT, BulkEmployeesBody, bulkEmployeesResponses } from './employees.bulk.schemas.js';
import { presentEmployee } from './employees.presenter.js';
import {
  CreateEmployeeBody,
  createEmployeeResponses,
  deleteEmployeeResponses,
  EmployeeParams,
  getEmployeeResponses,
  ListEmployeesQuery,
  listEmployeesResponses,
  UpdateEmployeeBody,
  updateEmployeeResponses,
} from './employees.schemas.js';
import {
  createEmployee,
  deleteEmployee,
  findEmployees,
  getEmployee,
  updateEmployee,
} from './employees.service.js';

export const employeesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/customer/employees/',
    {
      schema: {
        operationId: 'createEmployee',
        summary: 'Create an employee',
        tags: ['Employees'],
        body: CreateEmployeeBody,
        response: createEmployeeResponses,
      },
      config: { permission: 'employees:write' },
    },
    async (request, reply) => {
      const employee = await createEmployee(app.db, request.auth.accountId, request.body);
      reply.header('Location', absoluteUrl(request, `${app.apiPrefix}/customer/employees/${employee.id}/`));
      return reply.status(201).send(presentEmployee(employee));
    },
  );

  app.post(
    '/customer/employees/bulk/',
    {
      schema: {
        operationId: 'bulkUpsertEmployees',
        summary: 'Create or update up to 10,000 employees by address',
        description:
          'Upserts each row by its address (compared case-insensitively), with the rules of a create, atomically per row: a row that breaks a rule, or repeats an address an earlier row gave, is reported as `error` and the others still apply. Answers one result per row, in order. A body that is not `{"employees": [...]}` with 1 to 10,000 objects whose values are all strings (at most 8 MiB) is a 400 and changes nothing. Send an `Idempotency-Key` to retry safely.',
        tags: ['Employees'],
        body: BulkEmployeesBody,
        response: bulkEmployeesResponses,
      },
      config: {
        permission: 'employees:write',
        since: '2.3.0',
        // `{"employees": [{…strings…}]}`: anything nested deeper, or a row value that is no
        // string, is refused while the text is scanned, before anything is built from it.
        body: {
          accepts: { 'application/json': BULK_BODY_LIMIT },
          jsonDepth: 3,
          stringLeaves: {
            field: 'employees',
            rule: 'each row must be an object whose values are all strings',
          },
        },
      },
    },
    async (request) => {
      const outcome = await bulkUpsertEmployees(app.db, request.auth.accountId, request.body.employees);
      return { results: outcome.results, counts: outcome.counts };
    },
  );

  app.get(
    '/customer/employees/',
    {
      schema: {
        operationId: 'listEmployees',
        summary: 'List employees',
        description:
          'Ordered by id. Use `email=` to find an existing employee’s id, `updated_since=` to read only what changed since your last sync (incremental sync; the ids deleted meanwhile are at `/customer/employees/deleted/`).',
        tags: ['Employees'],
        querystring: ListEmployeesQuery,
        response: listEmployeesResponses,
      },
      config: { permission: 'employees:read' },
    },
    async (request) => {
      const page = await findEmployees(
        app.db,
        request.auth.accountId,
        request.query,
        pageRequest(request.query),
      );
      return presentPage(request, page, presentEmployee);
    },
  );

  registerDeletedList(app, {
    accessPoint: 'employees',
    resource: 'employee',
    operationId: 'listDeletedEmployees',
    summary: 'List deleted employees’ ids',
    description:
      'The ids of the account’s employees deleted (offboarded) at or after `since`, oldest first: an incremental sync removes them. Paged like every list.',
    tag: 'Employees',
  });

  app.get(
    '/customer/employees/:employee_id/',
    {
      schema: {
        operationId: 'getEmployee',
        summary: 'Get an employee',
        tags: ['Employees'],
        params: EmployeeParams,
        response: getEmployeeResponses,
      },
      config: { permission: 'employees:read' },
    },
    async (request) =>
      presentEmployee(await getEmployee(app.db, request.auth.accountId, request.params.employee_id)),
  );

  app.patch(
    '/customer/employees/:employee_id/',
    {
      schema: {
        operationId: 'updateEmployee',
        summary: 'Change an employee',
        description: 'Only the fields sent change, with the rules of the create.',
        tags: ['Employees'],
        params: EmployeeParams,
        body: UpdateEmployeeBody,
        response: updateEmployeeResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request) =>
      presentEmployee(
        await updateEmployee(app.db, request.auth.accountId, request.params.employee_id, request.body),
      ),
  );

  app.delete(
    '/customer/employees/:employee_id/',
    {
      schema: {
        operationId: 'deleteEmployee',
        summary: 'Offboard an employee',
        tags: ['Employees'],
        params: EmployeeParams,
        response: deleteEmployeeResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request, reply) => {
      await deleteEmployee(app.db, request.auth.accountId, request.params.employee_id);
      return reply.code(204).send();
    },
  );
};
