import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { responses } from '../../../core/http/admin-schemas.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import {
  EmployeeTrainingList,
  EmployeeTrainingParams,
  EmployeeTrainingQuery,
} from './results.training.admin-schemas.js';
import { presentEmployeeTraining } from './results.training.presenter.js';
import { employeeTraining } from './results.training.service.js';

/**
 * An employee's training for their page, relative to `/admin/api/accounts/:accountId` (whose
 * hooks checked the session, the CSRF token and the account). Phishing serves it because it is
 * the lowest context that sees the employee, their enrollments and which of them are remedial.
 */
export const employeeTrainingAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/employees/:employeeId/training',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags: ['Employees'],
        summary:
          'An employee’s enrollments, the latest first: campaign, status, dates, score and progress in each course; remedial ones name their phishing campaign',
        params: EmployeeTrainingParams,
        querystring: EmployeeTrainingQuery,
        response: responses({ 200: EmployeeTrainingList }),
      },
    },
    async (request) =>
      listEnvelope(
        await employeeTraining(
          app.db,
          accountOf(request).accountId,
          request.params.employeeId,
          listWindow(request.query),
          accountOf(request).groups,
        ),
        presentEmployeeTraining,
      ),
  );
};
