import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import type { ListPage, ListWindow } from '../../../core/pagination.js';
import { type EmployeeEnrollment, employeeEnrollments } from '../../training/index.js';
import { phishingCampaignsWithRemedial } from './results.training.repository.js';

/** An employee's enrollment, and the phishing campaign that enrolled them when it is remedial training. */
export interface EmployeeTrainingItem extends EmployeeEnrollment {
  remedialFor: { id: number; name: string } | null;
}

/**
 * An employee's training, the latest enrollment first (training's own record of it), each
 * remedial enrollment marked with the phishing simulation whose failure assigned it: phishing is
 * the context that knows which training campaigns are remedial. 404 for an unknown employee.
 */
export async function employeeTraining(
  db: Db,
  accountId: number,
  employeeId: number,
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<EmployeeTrainingItem>> {
  const page = await employeeEnrollments(db, accountId, employeeId, window, Date.now(), groups);
  const phishing = await phishingCampaignsWithRemedial(db, accountId, [
    ...new Set(page.items.map((e) => e.campaign_id)),
  ]);
  const byTraining = new Map(phishing.map((c) => [c.remedial_campaign_id, { id: c.id, name: c.name }]));
  return {
    count: page.count,
    items: page.items.map((e) => ({ ...e, remedialFor: byTraining.get(e.campaign_id) ?? null })),
  };
}
