/** The directory context as the contexts above it use it: employees, groups and their events. */

export { presentEmployee } from './employees/employees.presenter.js';
export type { Employee, NewEmployee, ProvisionedFields } from './employees/employees.service.js';
export {
  createEmployee,
  deleteEmployee,
  employeeSliceEnd,
  getEmployee,
  updateEmployee,
} from './employees/employees.service.js';
export {
  addGroupMembers,
  removeGroupMembers,
  replaceMembership,
} from './groups/groups.membership.commands.js';
export { presentGroup } from './groups/groups.presenter.js';
export type { Group } from './groups/groups.service.js';
export {
  createGroup,
  deleteGroup,
  employeesNotInAccount,
  getGroup,
  groupMemberIds,
  groupsHolding,
  updateGroup,
} from './groups/groups.service.js';
