import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { invalidateAccount } from '../../../components/invalidate';
import { useAccount } from '../../../layout/account-context';

interface DeleteTemplateDialogProps {
  template: { key: string; name: string } | null;
  opened: boolean;
  onClose: () => void;
  onDeleted?: () => void;
}

/** "Delete template?"; the server's refusal (a campaign past its draft uses it) shows in the dialog. */
export function DeleteTemplateDialog({ template, opened, onClose, onDeleted }: DeleteTemplateDialogProps) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const remove = async (t: { key: string; name: string }) => {
    await call(
      api.DELETE('/accounts/{accountId}/phishing/templates/{templateKey}', {
        params: { path: { accountId: account.id, templateKey: t.key } },
      }),
    );
    invalidateAccount(queryClient, account.id, 'phishing-templates');
    queryClient.removeQueries({ queryKey: ['phishing-template', account.id, t.key] });
    notifications.show({ color: 'teal', message: `Deleted template "${t.name}"` });
    onDeleted?.();
  };
  return (
    <ConfirmDelete
      opened={opened}
      onClose={onClose}
      title="Delete template?"
      onConfirm={() => (template ? remove(template) : Promise.resolve())}
    >
      The template <strong>{template?.name}</strong> will be deleted, and draft campaigns will no longer use
      it. A template that a scheduled, running or finished campaign uses cannot be deleted.
    </ConfirmDelete>
  );
}
