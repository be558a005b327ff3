import type { GroupListRow } from './groups.repository.js';
import type { GroupDetail } from './groups.service.js';

export function presentGroup(group: GroupListRow) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    employee_count: group.employee_count,
  };
}

export function presentGroupDetail(detail: GroupDetail) {
  // Members are already in the summary shape; the response schema serializes exactly these fields.
  return { ...presentGroup(detail.group), employees: detail.members };
}
