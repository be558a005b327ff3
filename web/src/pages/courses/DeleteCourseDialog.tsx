import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { CourseSummary } from '../../api/types';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { invalidateAccount } from '../../components/invalidate';
import { useAccount } from '../../layout/account-context';

interface DeleteCourseDialogProps {
  course: Pick<CourseSummary, 'key' | 'title'> | null;
  opened: boolean;
  onClose: () => void;
  /** After the course is gone (its own page then leaves). */
  onDeleted?: () => void;
}

/** "Delete course?" for a custom course, from the list or its page; the server's refusal (a campaign uses it) shows in the dialog. */
export function DeleteCourseDialog({ course, opened, onClose, onDeleted }: DeleteCourseDialogProps) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const remove = async (c: Pick<CourseSummary, 'key' | 'title'>) => {
    await call(
      api.DELETE('/accounts/{accountId}/courses/{courseKey}', {
        params: { path: { accountId: account.id, courseKey: c.key } },
      }),
    );
    invalidateAccount(queryClient, account.id, 'courses');
    queryClient.removeQueries({ queryKey: ['course', account.id, c.key] });
    notifications.show({ color: 'teal', message: `Deleted course "${c.title}"` });
    onDeleted?.();
  };

  return (
    <ConfirmDelete
      opened={opened}
      onClose={onClose}
      title="Delete course?"
      onConfirm={() => (course ? remove(course) : Promise.resolve())}
    >
      The course <strong>{course?.title}</strong> will be deleted. A course that a campaign uses cannot be
      deleted.
    </ConfirmDelete>
  );
}
