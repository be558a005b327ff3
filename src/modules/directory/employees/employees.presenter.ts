import { iso } from '../../../core/time.js';
import type { EmployeeRow as Employee } from './employees.repository.js';

export function presentEmployee(employee: Employee) {
  return {
    id: employee.id,
    first_name: employee.first_name,
    last_name: employee.last_name,
    email: employee.email,
    created_at: iso(employee.created_at),
    updated_at: iso(employee.updated_at),
  };
}

/** An employee as the web interface lists them: whether they are active too (never in the Customer API). */
export function presentAdminEmployee(employee: Employee) {
  return { ...presentEmployee(employee), active: employee.active === 1 };
}

/** An employee with the groups it belongs to (the web interface's employee page). */
export function presentEmployeeWithGroups(
  employee: Employee & { groups: Array<{ id: number; name: string }> },
) {
  return { ...presentAdminEmployee(employee), groups: employee.groups };
}
