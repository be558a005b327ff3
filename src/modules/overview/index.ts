/** The overview context: the account's counts at a glance, for the admin overview page. */
export { overviewAdminRoutes } from './overview.admin-routes.js';
