import { Code, List, Text } from '@mantine/core';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { plural } from '../../components/format';

interface DeleteEmployeeDialogProps {
  opened: boolean;
  onClose: () => void;
  employee: { id: number; first_name: string; last_name: string; email: string } | null;
  /** Their groups, when the page knows them (the employee page), to name what they leave. */
  groups?: { name: string }[] | undefined;
  /** How many training enrollments they have, when the page knows it. */
  enrollments?: number | undefined;
  /** Runs the deletion (DELETE …/employees/{id}); the dialog shows its error when it fails. */
  onConfirm: () => Promise<unknown>;
}

/**
 * "Delete employee?": what deleting an employee does, as the server does it in one transaction
 * (directory's deleteEmployee and the subscribers of employee.deleting and employee.deleted:
 * training and phishing keep their records anonymised, their mail goes, webhooks and the sync's
 * tombstone), and the address typed to confirm.
 */
export function DeleteEmployeeDialog({
  opened,
  onClose,
  employee,
  groups,
  enrollments,
  onConfirm,
}: DeleteEmployeeDialogProps) {
  const name = employee ? `${employee.first_name} ${employee.last_name}` : '';
  const anonymous = `Deleted employee #${employee?.id ?? ''}`;
  const groupText =
    groups === undefined
      ? 'They leave every group they are in (the groups’ counts change).'
      : groups.length === 0
        ? 'They are in no group.'
        : `They leave ${plural(groups.length, 'group')}: ${groups.map((g) => g.name).join(', ')}.`;
  const trainingText =
    enrollments === undefined
      ? 'Their training record stays'
      : `Their ${plural(enrollments, 'training enrollment')} ${enrollments === 1 ? 'stays' : 'stay'}`;
  return (
    <ConfirmDelete
      opened={opened}
      onClose={onClose}
      title="Delete employee?"
      confirmLabel="Delete employee"
      onConfirm={onConfirm}
      typeToConfirm={
        employee ? { label: `Type ${employee.email} to confirm`, text: employee.email } : undefined
      }
    >
      <Text mb="xs">
        <strong>{name}</strong> ({employee?.email}) will be deleted. This cannot be undone.
      </Text>
      <List size="sm" spacing={6} mb="xs">
        <List.Item>
          Their employee record, with their name and email address, is deleted. {groupText}
        </List.Item>
        <List.Item>
          {enrollments === 0 ? (
            'They have no training enrollments.'
          ) : (
            <>
              {trainingText}, with progress, scores and completion dates, shown as “{anonymous}” in campaigns
              and exports; campaign figures do not change. Their training links stop working and no invitation
              or reminder is sent to them again.
            </>
          )}
        </List.Item>
        <List.Item>
          Their phishing simulation results stay, as “{anonymous}”; no remedial training is assigned to them
          afterwards.
        </List.Item>
        <List.Item>Every message to them, queued or sent, is removed from the Outbox.</List.Item>
        <List.Item>
          Webhooks send <Code>employee.deleted</Code>
          {groups?.length === 0 ? (
            ''
          ) : (
            <>
              {' '}
              and <Code>group.membership_changed</Code> for each group
            </>
          )}
          . The Customer API lists the id among deleted employees for syncs; SCIM and the API answer “not
          found” for it.
        </List.Item>
      </List>
      <Text size="sm">
        If an identity provider (SCIM) or HR sync still lists them, it can add them again as a new employee:
        remove them there first. Their address can be used for a new employee at once.
      </Text>
    </ConfirmDelete>
  );
}
