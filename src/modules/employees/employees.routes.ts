import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { absoluteUrl } from '../../http/links.js';
import { presentPage } from '../../http/page-envelope.js';
import { pageRequest } from '../../pagination.js';
import { presentEmployee } from './employees.presenter.js';
import {
  CreateEmployeeBody,
  createEmployeeResponses,
  EmployeeParams,
  getEmployeeResponses,
  ListEmployeesQuery,
  listEmployeesResponses,
} from './employees.schemas.js';
import { createEmployee, findEmployees, getEmployee } from './employees.service.js';

export const employeesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/customer/employees/',
    {
      schema: {
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

  app.get(
    '/customer/employees/',
    {
      schema: {
        summary: 'List employees',
        description: 'Ordered by id. Use `email=` to find an existing employee’s id.',
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

  app.get(
    '/customer/employees/:employee_id/',
    {
      schema: {
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
};
