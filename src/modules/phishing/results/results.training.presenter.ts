import { iso, isoOrNull } from '../../../core/time.js';
import type { EmployeeTrainingItem } from './results.training.service.js';

/** An employee's enrollment as the employee page shows it (EmployeeTrainingItem). */
export function presentEmployeeTraining(item: EmployeeTrainingItem) {
  return {
    enrollment_id: item.id,
    campaign: { id: item.campaign_id, name: item.campaign_name, status: item.campaign_status },
    remedial_for: item.remedialFor,
    status: item.status,
    enrolled_at: iso(item.enrolled_at),
    started_at: isoOrNull(item.started_at),
    due_at: isoOrNull(item.due_at),
    completed_at: isoOrNull(item.completed_at),
    score: item.score,
    last_activity_at: isoOrNull(item.last_activity_at),
    courses: item.courses.map((c) => ({
      key: c.key,
      title: c.title,
      lessons: c.lessons,
      lessons_read: c.lessons_read,
      attempts: c.attempts,
      best_score: c.best_score,
      passed_at: isoOrNull(c.passed_at),
    })),
  };
}
