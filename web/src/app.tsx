import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from './api/client';
import { RequireAuth, RequireOperator } from './auth/RequireAuth';
import { useCurrentUser } from './auth/session';
import { NotFound, RouteError } from './components/RouteError';
import { AccountLayout } from './layout/AccountLayout';
import { AppLayout } from './layout/AppLayout';
import { AccountsPage } from './pages/accounts/AccountsPage';
import { AdminsPage } from './pages/admins/AdminsPage';
import { AuditLogPage } from './pages/audit/AuditLogPage';
import { AcceptLinkPage } from './pages/auth/AcceptLinkPage';
import { EnrolPage } from './pages/auth/EnrolPage';
import { SecondStepPage } from './pages/auth/SecondStepPage';
import { SignInPage } from './pages/auth/SignInPage';
import { CampaignFormPage } from './pages/campaigns/CampaignFormPage';
import { CampaignsPage } from './pages/campaigns/CampaignsPage';
import { CoursePage } from './pages/courses/CoursePage';
import { CoursesPage } from './pages/courses/CoursesPage';
import { EmployeesPage } from './pages/employees/EmployeesPage';
import { ImportPage } from './pages/employees/import/ImportPage';
import { GroupPage } from './pages/groups/GroupPage';
import { GroupsPage } from './pages/groups/GroupsPage';
import { HomeRedirect } from './pages/HomeRedirect';
import { IntegrationPage } from './pages/integration/IntegrationPage';
import { OutboxPage } from './pages/outbox/OutboxPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { PhishingCampaignFormPage } from './pages/phishing/campaigns/PhishingCampaignFormPage';
import { PhishingCampaignPage } from './pages/phishing/campaigns/PhishingCampaignPage';
import { PhishingCampaignsPage } from './pages/phishing/campaigns/PhishingCampaignsPage';
import { SignInSecurityPage } from './pages/security/SignInSecurityPage';
import { queryClient } from './queryClient';
import { cssVariablesResolver, theme } from './theme';

const campaignPage = async () => ({
  Component: (await import('./pages/campaigns/CampaignPage')).CampaignPage,
});
const phishingTemplatePage = async () => ({
  Component: (await import('./pages/phishing/templates/TemplatePage')).TemplatePage,
});
const phishingTemplateFormPage = async () => ({
  Component: (await import('./pages/phishing/templates/TemplateFormPage')).TemplateFormPage,
});
const phishingTemplatesPage = async () => ({
  Component: (await import('./pages/phishing/templates/TemplatesPage')).TemplatesPage,
});
const phishingSettingsPage = async () => ({
  Component: (await import('./pages/phishing/settings/PhishingSettingsPage')).PhishingSettingsPage,
});
const accountSettingsPage = async () => ({
  Component: (await import('./pages/settings/AccountSettingsPage')).AccountSettingsPage,
});
const ssoPage = async () => ({
  Component: (await import('./pages/sso/SsoPage')).SsoPage,
});
const phishingResultsPage = async () => ({
  Component: (await import('./pages/phishing/results/CampaignResultsPage')).CampaignResultsPage,
});
const reportsPage = async () => ({
  Component: (await import('./pages/reports/ReportsPage')).ReportsPage,
});
const reportPage = async () => ({
  Component: (await import('./pages/reports/ReportPage')).ReportPage,
});
const reportingSettingsPage = async () => ({
  Component: (await import('./pages/reports/ReportingSettingsPage')).ReportingSettingsPage,
});
const employeePage = async () => ({
  Component: (await import('./pages/employees/EmployeePage')).EmployeePage,
});
const sessionsPage = async () => ({
  Component: (await import('./pages/sessions/SessionsPage')).OwnSessionsPage,
});
const courseFormPage = async () => ({
  Component: (await import('./pages/courses/CourseFormPage')).CourseFormPage,
});

/** /security — the signed-in user's own second factors, in their account's layout (none for operators). */
function OwnSecurity() {
  const user = useCurrentUser();
  return (
    <AppLayout accountId={user.account_id}>
      <SignInSecurityPage />
    </AppLayout>
  );
}

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
    { path: '/sign-in/verify', element: <SecondStepPage />, errorElement: <RouteError /> },
    { path: '/sign-in/enrol', element: <EnrolPage />, errorElement: <RouteError /> },
    { path: '/setup/:token', element: <AcceptLinkPage kind="setup" />, errorElement: <RouteError /> },
    { path: '/invite/:token', element: <AcceptLinkPage kind="invite" />, errorElement: <RouteError /> },
    {
      element: <RequireAuth />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <HomeRedirect /> },
        { path: '/security', element: <OwnSecurity /> },
        {
          path: '/accounts',
          element: (
            <RequireOperator>
              <AppLayout accountId={null}>
                <AccountsPage />
              </AppLayout>
            </RequireOperator>
          ),
        },
        { path: '/sessions', lazy: sessionsPage },
        {
          path: '/a/:accountId',
          element: <AccountLayout />,
          children: [
            { index: true, element: <OverviewPage /> },
            { path: 'employees', element: <EmployeesPage /> },
            { path: 'employees/import', element: <ImportPage /> },
            { path: 'employees/:employeeId', lazy: employeePage },
            { path: 'phishing/campaigns/:campaignId/results', lazy: phishingResultsPage },
            { path: 'groups', element: <GroupsPage /> },
            { path: 'groups/:groupId', element: <GroupPage /> },
            { path: 'campaigns', element: <CampaignsPage /> },
            { path: 'campaigns/new', element: <CampaignFormPage /> },
            // Code-split: the charts (recharts) and the Markdown editor (markdown-it) load only on these pages.
            { path: 'campaigns/:campaignId', lazy: campaignPage },
            { path: 'campaigns/:campaignId/edit', element: <CampaignFormPage /> },
            { path: 'phishing', element: <PhishingCampaignsPage /> },
            { path: 'phishing/campaigns/new', element: <PhishingCampaignFormPage /> },
            { path: 'phishing/campaigns/:campaignId', element: <PhishingCampaignPage /> },
            { path: 'phishing/campaigns/:campaignId/edit', element: <PhishingCampaignFormPage /> },
            { path: 'courses', element: <CoursesPage /> },
            { path: 'courses/new', lazy: courseFormPage },
            { path: 'courses/:courseKey', element: <CoursePage /> },
            { path: 'courses/:courseKey/edit', lazy: courseFormPage },
            { path: 'phishing/templates', lazy: phishingTemplatesPage },
            { path: 'phishing/templates/new', lazy: phishingTemplateFormPage },
            { path: 'phishing/templates/:templateKey', lazy: phishingTemplatePage },
            { path: 'phishing/templates/:templateKey/edit', lazy: phishingTemplateFormPage },
            { path: 'phishing/settings', lazy: phishingSettingsPage },
            { path: 'reports', lazy: reportsPage },
            { path: 'reports/settings', lazy: reportingSettingsPage },
            { path: 'reports/:reportId', lazy: reportPage },
            { path: 'outbox', element: <OutboxPage /> },
            { path: 'integration', element: <IntegrationPage /> },
            { path: 'admins', element: <AdminsPage /> },
            { path: 'audit-log', element: <AuditLogPage /> },
            { path: 'settings', lazy: accountSettingsPage },
            { path: 'sso', lazy: ssoPage },
            { path: '*', element: <NotFound /> },
          ],
        },
        {
          path: '*',
          element: (
            <AppLayout accountId={null}>
              <NotFound />
            </AppLayout>
          ),
        },
      ],
    },
    { path: '/index.html', element: <Navigate to="/" replace /> },
  ],
  { basename: '/admin' },
);

// Any call answered 401 (session ended): forget cached data, sign in, then come back here.
setUnauthorizedHandler(() => {
  // The router's state holds the full path, basename included.
  const { pathname, search } = router.state.location;
  const path = pathname.replace(/^\/admin(?=\/|$)/, '') || '/';
  if (path === '/sign-in') return;
  queryClient.removeQueries();
  const next = path + search;
  router.navigate(next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`, { replace: true });
});

/** Providers (theme, notifications, data cache) and the routes of the administration. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
