import { Badge, Button, Card, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { useAccount } from '../../layout/account-context';

type AccountMfa = components['schemas']['AccountMfa'];
type Person = AccountMfa['administrators'][number];

/**
 * The account's two-step sign-in: whether every administrator must have a second factor (an
 * owner's switch), who has one, and an owner's reset of someone's factors (a lost phone or key).
 */
export function AccountMfaCard() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const key = ['account-mfa', account.id];
  const path = { params: { path: { accountId: account.id } } };
  const mfa = useQuery({
    queryKey: key,
    queryFn: () => call(api.GET('/accounts/{accountId}/security/mfa', path)),
  });
  const [resetting, setResetting] = useState<Person | null>(null);
  const change = useMutation({
    mutationFn: (require_mfa: boolean) =>
      call(api.PUT('/accounts/{accountId}/security/mfa', { ...path, body: { require_mfa } })),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });

  if (mfa.isPending) return <Loading />;
  if (!mfa.data) return <ErrorAlert error={mfa.error} title="Could not load the sign-in settings" />;
  const data = mfa.data;
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Title order={2} size="h4">
          Two-step sign-in
        </Title>
        <Switch
          label="Require a second factor of every administrator"
          description="Those without one add an authenticator app or a passkey at their next sign-in. Sign-ins through your identity provider (SSO) follow its own rules."
          checked={data.require_mfa || data.required_by_operator}
          disabled={data.required_by_operator || change.isPending}
          onChange={(e) => change.mutate(e.currentTarget.checked)}
        />
        {data.required_by_operator && (
          <Text size="sm" c="dimmed">
            The operator of this service requires it of everyone.
          </Text>
        )}
        <ErrorAlert error={change.error} />
        <Table aria-label="Administrators and their second factors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Administrator</Table.Th>
              <Table.Th>Second factors</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.administrators.map((person) => (
              <Table.Tr key={person.id}>
                <Table.Td>
                  <Text size="sm">{person.name || person.email}</Text>
                  {person.name && (
                    <Text size="xs" c="dimmed">
                      {person.email}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {person.factors > 0 ? (
                    <Badge variant="light" color="green">
                      {person.factors}
                    </Badge>
                  ) : (
                    <Badge variant="light" color="gray">
                      None
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {person.factors > 0 && (
                    <Button size="xs" variant="default" onClick={() => setResetting(person)}>
                      Reset
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
      <ConfirmDelete
        opened={resetting !== null}
        onClose={() => setResetting(null)}
        title={`Reset the second factors of ${resetting?.name || resetting?.email || ''}?`}
        confirmLabel="Reset"
        onConfirm={async () => {
          await call(
            api.DELETE('/accounts/{accountId}/admins/{id}/mfa', {
              params: { path: { accountId: account.id, id: resetting?.id ?? 0 } },
            }),
          );
          await queryClient.invalidateQueries({ queryKey: key });
        }}
      >
        Every authenticator app, passkey and recovery code of theirs stops working and they are signed out.
        {data.require_mfa || data.required_by_operator ? ' They add a new factor at their next sign-in.' : ''}
      </ConfirmDelete>
    </Card>
  );
}
