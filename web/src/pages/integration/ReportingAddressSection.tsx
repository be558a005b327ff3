import { Button, Code, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageSection } from '../../components/PageSection';
import { useAccount } from '../../layout/account-context';

/**
 * The Integration area's reporting address: where the account's reporting mailbox and its
 * employees forward suspicious mail (docs/reporting-address.md), with a copy button, a new
 * address on request, and how Microsoft 365, Gmail and phones are pointed at it.
 */
export function ReportingAddressSection() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const queryKey = ['reporting-address', account.id];
  const address = useQuery({
    queryKey,
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/reporting/address', { params: { path: { accountId: account.id } } }),
      ),
  });
  const value = address.data?.address ?? null;

  const regenerate = async () => {
    const renewed = await call(
      api.POST('/accounts/{accountId}/reporting/address/regenerate', {
        params: { path: { accountId: account.id } },
      }),
    );
    queryClient.setQueryData(queryKey, renewed);
    notifications.show({ color: 'teal', message: 'The reporting address is new; update your forwarding' });
  };

  return (
    <PageSection
      title="Reporting address"
      actions={
        value && (
          <Button variant="default" onClick={() => setConfirming(true)}>
            New Address
          </Button>
        )
      }
    >
      <ErrorAlert error={address.error} title="Could not load the reporting address" />
      {address.data && !value && (
        <Text size="sm">
          This server has no reporting address: its operator sets <Code>REPORT_DOMAIN</Code> and{' '}
          <Code>REPORT_SMTP_PORT</Code> (see the operator’s guide, “Reporting address”).
        </Text>
      )}
      {value && (
        <>
          <Group gap="xs">
            <Code fz="sm" aria-label="Reporting address">
              {value}
            </Code>
            <CopyButton value={value} />
          </Group>
          <Text size="sm">
            Suspicious mail forwarded to this address is reported: a simulation is credited to the employee,
            anything else goes to triage. Only mail from your employees’ addresses is accepted.
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <strong>Microsoft 365:</strong> in Microsoft Defender, Settings → Email &amp; collaboration →
              User reported settings, set “Send the reported messages to” to “My reporting mailbox only” and
              choose a mailbox; then add a mail flow rule in the Exchange admin center that redirects that
              mailbox’s mail to this address. Outlook’s built-in Report button then reports to Vigil.
            </List.Item>
            <List.Item>
              <strong>Gmail:</strong> select the message, More → Forward as attachment, to this address (a
              plain Forward works too).
            </List.Item>
            <List.Item>
              <strong>Phones:</strong> forward the message to this address from the mail app.
            </List.Item>
          </List>
        </>
      )}
      <ConfirmDelete
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Make a new reporting address?"
        confirmLabel="Make New Address"
        onConfirm={regenerate}
      >
        Mail to <strong>{value}</strong> is refused from now on: update the forwarding rule and tell your
        employees the new address.
      </ConfirmDelete>
    </PageSection>
  );
}
