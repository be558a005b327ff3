import { Anchor, Badge, Button, Code, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconShieldExclamation } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { api, call } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { invalidateAccount } from '../../components/invalidate';
import { PageSection } from '../../components/PageSection';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';

/** The add-in's files, served by this server for a report key (docs/outlook-add-in.md). */
const ADDIN = '/addins/outlook';
const REPORT_KEY_NAME = 'Outlook report button';

/** A report key: an API key that can report and do nothing else. */
export const isReportKey = (key: ApiKey) =>
  key.permissions.length === 1 && key.permissions[0] === 'reports:write';

const manifestUrl = (key: string, file: 'manifest.xml' | 'manifest.json' | 'package.zip') =>
  `${ADDIN}/${file}?key=${encodeURIComponent(key)}`;

/** Download links for a new report key's manifests. */
function ManifestDownloads({ secret }: { secret: string }) {
  const link = (file: 'manifest.xml' | 'package.zip', label: string, name: string) => (
    <Button
      component="a"
      href={manifestUrl(secret, file)}
      download={name}
      variant="light"
      leftSection={<IconDownload size={16} aria-hidden />}
    >
      {label}
    </Button>
  );
  return (
    <Group>
      {link('manifest.xml', 'Download XML manifest', 'vigil-report-phishing.xml')}
      {link('package.zip', 'Download unified manifest', 'vigil-report-phishing.zip')}
    </Group>
  );
}

/** How an administrator deploys the add-in to their organisation's Outlook. */
export function DeploymentSteps() {
  return (
    <>
      <Text size="sm" fw={600}>
        Deploy it in Microsoft 365
      </Text>
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>
          Open the{' '}
          <Anchor inherit href="https://admin.microsoft.com" target="_blank" rel="noopener noreferrer">
            Microsoft 365 admin center
          </Anchor>{' '}
          → <strong>Settings</strong> → <strong>Integrated apps</strong> → <strong>Upload custom apps</strong>
          .
        </List.Item>
        <List.Item>
          Choose <strong>Office Add-in</strong> and upload the XML manifest file (or, for the unified
          manifest, choose the app package and upload the <Code>.zip</Code>).
        </List.Item>
        <List.Item>Assign the users or groups who get the button (or the whole organisation).</List.Item>
        <List.Item>
          Accept the permissions and <strong>Deploy</strong>. The button can take up to 24 hours to appear in
          Outlook.
        </List.Item>
      </List>
      <Text size="sm" c="dimmed">
        Employees then see <strong>Report phishing</strong> on every message they read. A simulation is
        credited to them at once and moved to Deleted Items; anything else goes to your triage inbox.
      </Text>
    </>
  );
}

/**
 * The Integration area's "Report button": a report key (an API key holding `reports:write` alone),
 * shown once with the add-in's manifests to download and the steps to deploy them; the account's
 * report keys, each revocable (which switches the button off in every mailbox at once).
 */
export function ReportButtonSection({
  accountId,
  keys,
  fetching,
}: {
  accountId: number;
  keys: ApiKey[];
  fetching: boolean;
}) {
  const queryClient = useQueryClient();
  const revoking = useDialog<ApiKey>();
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/keys', {
          params: { path: { accountId } },
          body: { name: REPORT_KEY_NAME, permissions: ['reports:write'], expires_at: null },
        }),
      ),
    onSuccess: () => invalidateAccount(queryClient, accountId, 'keys', 'overview'),
  });
  const created = create.data;

  const revoke = async (key: ApiKey) => {
    await call(
      api.POST('/accounts/{accountId}/keys/{id}/revoke', {
        params: { path: { accountId, id: key.id } },
      }),
    );
    invalidateAccount(queryClient, accountId, 'keys', 'overview');
    notifications.show({ color: 'teal', message: `Revoked "${key.name}"` });
  };

  return (
    <PageSection
      title="Report button"
      actions={
        <Button
          leftSection={<IconShieldExclamation size={16} aria-hidden />}
          loading={create.isPending}
          onClick={() => create.mutate()}
        >
          Create Report Key
        </Button>
      }
    >
      <Text size="sm">
        The Outlook add-in puts a <strong>Report phishing</strong> button on every message your employees
        read. It carries a report key, which can report messages and do nothing else.
      </Text>
      <ErrorAlert error={create.error} title="Could not create the report key" />
      <DataTable<ApiKey>
        {...baseTableProps}
        aria-label="Report keys"
        records={keys.filter(isReportKey)}
        fetching={fetching}
        emptyState={<EmptyState title="No report keys yet">Create one with “Create Report Key”.</EmptyState>}
        columns={[
          { accessor: 'name', title: 'Name' },
          {
            accessor: 'prefix',
            title: 'Prefix',
            render: (k) => <Code>{k.prefix}…</Code>,
            visibleMediaQuery: WIDE_ONLY,
          },
          { accessor: 'created_at', title: 'Created', render: (k) => <DateText value={k.created_at} /> },
          {
            accessor: 'last_used_at',
            title: 'Last used',
            render: (k) =>
              k.last_used_at ? <DateText value={k.last_used_at} /> : <Text size="sm">Never</Text>,
          },
          {
            accessor: 'status',
            title: 'Status',
            render: (k) => (
              <Badge color={k.status === 'active' ? 'teal' : 'red'} variant="light">
                {k.status === 'active' ? 'Active' : k.status === 'expired' ? 'Expired' : 'Revoked'}
              </Badge>
            ),
          },
          {
            accessor: 'actions',
            title: 'Actions',
            textAlign: 'right',
            render: (k) =>
              k.status === 'active' && (
                <Button size="compact-sm" variant="light" color="red" onClick={() => revoking.open(k)}>
                  Revoke
                </Button>
              ),
          },
        ]}
      />
      {created && (
        <SecretShownOnce
          opened
          onClose={() => create.reset()}
          title="Your new report key"
          warning={{
            title: 'Download the manifests now',
            text: 'This is the only time the key is shown. The manifests carry it: download the one you deploy before closing this window.',
          }}
          label="Report key"
          secret={created.key}
        >
          <ManifestDownloads secret={created.key} />
          <DeploymentSteps />
        </SecretShownOnce>
      )}
      <ConfirmDeleteOf dialog={revoking} title="Revoke report key?" confirmLabel="Revoke" onConfirm={revoke}>
        The <strong>Report phishing</strong> button using <strong>{revoking.target?.name}</strong> (
        <Code>{revoking.target?.prefix}…</Code>) stops working in every mailbox at once. This cannot be
        undone.
      </ConfirmDeleteOf>
    </PageSection>
  );
}
