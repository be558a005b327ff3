import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import type { CourseSummary } from '../../api/types';
import { AddButton } from '../../components/AddButton';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath, useAccount } from '../../layout/account-context';
import { DeleteCourseDialog } from './DeleteCourseDialog';

/** "Built-in" or "Custom": where a course comes from, in words. */
export function CourseKindBadge({ builtIn }: { builtIn: boolean }) {
  return (
    <Badge variant="light" color={builtIn ? 'gray' : 'indigo'}>
      {builtIn ? 'Built-in' : 'Custom'}
    </Badge>
  );
}

/** /a/:accountId/courses — the built-in catalogue and the account's own courses. */
export function CoursesPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const deleting = useDialog<CourseSummary>();
  const courses = useQuery({
    queryKey: ['courses', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/courses', { params: { path: { accountId: account.id } } })),
  });
  const path = (c: CourseSummary, ...rest: string[]) => accountPath(account.id, 'courses', c.key, ...rest);
  const newCourse = () => navigate(accountPath(account.id, 'courses', 'new'));

  return (
    <>
      <PageHeader
        title="Courses"
        description="What campaigns teach: the built-in security-awareness courses and your own."
        actions={<AddButton onClick={newCourse}>New course</AddButton>}
      />
      <Stack>
        <ErrorAlert error={courses.error} title="Could not load the courses" />
        <DataTable<CourseSummary>
          {...baseTableProps}
          aria-label="Courses"
          idAccessor="key"
          records={courses.data?.results ?? []}
          fetching={courses.isPending}
          emptyState={<EmptyState title="No courses">Create one with “New course”.</EmptyState>}
          columns={[
            {
              accessor: 'title',
              title: 'Course',
              render: (c) => (
                <Stack gap={0}>
                  <Anchor component={Link} to={path(c)} fw={500}>
                    {c.title}
                  </Anchor>
                  <Text size="xs" c="dimmed" lineClamp={1} maw={480} visibleFrom="sm">
                    {c.summary}
                  </Text>
                </Stack>
              ),
            },
            { accessor: 'built_in', title: 'Type', render: (c) => <CourseKindBadge builtIn={c.built_in} /> },
            {
              accessor: 'lesson_count',
              title: 'Lessons',
              textAlign: 'right',
              render: (c) => formatNumber(c.lesson_count),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'question_count',
              title: 'Questions',
              textAlign: 'right',
              render: (c) => formatNumber(c.question_count),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'minutes',
              title: 'Minutes',
              textAlign: 'right',
              render: (c) => formatNumber(c.minutes),
            },
            {
              accessor: 'pass_mark',
              title: 'Pass mark',
              textAlign: 'right',
              render: (c) => `${c.pass_mark}%`,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (c) =>
                c.built_in ? null : (
                  <RowActions
                    name={c.title}
                    onEdit={() => navigate(path(c, 'edit'))}
                    onDelete={() => deleting.open(c)}
                  />
                ),
            },
          ]}
        />
      </Stack>
      <DeleteCourseDialog course={deleting.target} opened={deleting.opened} onClose={deleting.close} />
    </>
  );
}
