import { Type } from '@sinclair/typebox';
import { NullableTimestamp, PathId, Timestamp } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields } from '../../../core/http/schemas.js';

/** Request and response schemas of the admin API's employee training route (in /admin/api/openapi.json). */

export const EmployeeTrainingParams = Type.Object({ accountId: PathId, employeeId: PathId });
export const EmployeeTrainingQuery = Type.Object(listQueryFields);

const Count = Type.Integer({ minimum: 0 });

export const EmployeeTrainingItem = Type.Object(
  {
    enrollment_id: Id,
    campaign: Type.Object({ id: Id, name: Type.String(), status: Type.String() }),
    remedial_for: Type.Union([Type.Object({ id: Id, name: Type.String() }), Type.Null()], {
      description:
        'The phishing campaign whose failing step enrolled the employee (remedial training); null for a training campaign of their groups.',
    }),
    status: Type.Union(
      ['not_started', 'in_progress', 'completed', 'overdue'].map((s) => Type.Literal(s)),
      { description: '`overdue`: not completed and past the campaign’s due date.' },
    ),
    enrolled_at: Timestamp,
    started_at: NullableTimestamp,
    due_at: Type.Union([Timestamp, Type.Null()], {
      description: 'The campaign’s due date; null when it has none.',
    }),
    completed_at: NullableTimestamp,
    score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description:
        'Whole percent: the mean of the best quiz score in each course, once every quiz has been taken.',
    }),
    last_activity_at: NullableTimestamp,
    courses: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.Union([Type.String(), Type.Null()], { description: 'Null when the course was deleted.' }),
        lessons: Count,
        lessons_read: Count,
        attempts: Count,
        best_score: Type.Union([Type.Number(), Type.Null()]),
        passed_at: NullableTimestamp,
      }),
      { description: 'The campaign’s courses, in its order, with the employee’s progress in each.' },
    ),
  },
  { title: 'EmployeeTrainingItem' },
);

export const EmployeeTrainingList = ListOf(EmployeeTrainingItem);
