import { Button, Group as Row, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileUpload, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { BackLink } from '../../components/BackLink';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { EditDeleteButtons } from '../../components/EditDeleteButtons';
import { plural } from '../../components/format';
import { invalidateAccount } from '../../components/invalidate';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { accountPath, useAccount } from '../../layout/account-context';
import { AddByEmailModal } from './AddByEmailModal';
import { AddMembersModal } from './AddMembersModal';
import { GroupFormModal } from './GroupFormModal';
import { MembersTable } from './MembersTable';

type Dialog = 'edit' | 'delete' | 'add' | 'by-email' | null;

/** /a/:accountId/groups/:groupId — a group and its members: add, remove, bulk add by email. */
export function GroupPage() {
  const account = useAccount();
  const groupId = Number(useParams().groupId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const group = useQuery({
    queryKey: ['group', account.id, groupId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/groups/{groupId}', {
          params: { path: { accountId: account.id, groupId } },
        }),
      ),
    enabled: Number.isInteger(groupId),
  });
  const back = <BackLink to={accountPath(account.id, 'groups')}>Groups</BackLink>;

  if (group.isPending && Number.isInteger(groupId)) return <Loading />;
  if (!group.data) {
    return <NotFoundPage thing="group" back={back} error={group.error} />;
  }
  const g = group.data;
  const close = () => setDialog(null);
  const remove = async () => {
    await call(
      api.DELETE('/accounts/{accountId}/groups/{groupId}', {
        params: { path: { accountId: account.id, groupId: g.id } },
      }),
    );
    invalidateAccount(queryClient, account.id, 'groups', 'overview', 'employee', 'campaigns', 'campaign');
    queryClient.removeQueries({ queryKey: ['group', account.id, g.id] });
    notifications.show({ color: 'teal', message: `Deleted group "${g.name}"` });
    navigate(accountPath(account.id, 'groups'), { replace: true });
  };

  return (
    <>
      <PageHeader
        title={g.name}
        above={back}
        description={
          <>
            {g.description && (
              <Text component="span" display="block" style={{ whiteSpace: 'pre-line' }}>
                {g.description}
              </Text>
            )}
            <Text component="span" size="sm">
              {plural(g.employee_count, 'member')}
            </Text>
          </>
        }
        actions={
          <EditDeleteButtons
            noun="group"
            onEdit={() => setDialog('edit')}
            onDelete={() => setDialog('delete')}
          />
        }
      />
      <Row mb="md" gap="sm">
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setDialog('add')}>
          Add members
        </Button>
        <Button
          variant="light"
          leftSection={<IconFileUpload size={16} aria-hidden />}
          onClick={() => setDialog('by-email')}
        >
          Add from CSV
        </Button>
      </Row>
      <MembersTable accountId={account.id} group={g} />

      <GroupFormModal accountId={account.id} opened={dialog === 'edit'} onClose={close} group={g} />
      <AddMembersModal accountId={account.id} group={g} opened={dialog === 'add'} onClose={close} />
      <AddByEmailModal accountId={account.id} group={g} opened={dialog === 'by-email'} onClose={close} />
      <ConfirmDelete opened={dialog === 'delete'} onClose={close} title="Delete group?" onConfirm={remove}>
        The group <strong>{g.name}</strong> will be deleted. Its {plural(g.employee_count, 'member')} stay
        employees of the account.
      </ConfirmDelete>
    </>
  );
}
