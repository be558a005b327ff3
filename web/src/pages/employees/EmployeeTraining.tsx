import { Anchor, Badge, Card, Pagination, Group as Row, SimpleGrid, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Fact } from '../../components/Fact';
import { formatNumber } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageSection } from '../../components/PageSection';
import { ENROLLMENT_COLORS, StatusBadge } from '../../components/StatusBadge';
import { accountPath } from '../../layout/account-context';

type TrainingItem = components['schemas']['EmployeeTrainingItem'];

const PAGE_SIZE = 25;

/** The query of an employee's training: the page's section and its delete dialog (how many enrollments) share it. */
export function useEmployeeTraining(accountId: number, employeeId: number, page: number) {
  return useQuery({
    queryKey: ['employee-training', accountId, employeeId, page],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/employees/{employeeId}/training', {
          params: { path: { accountId, employeeId }, query: { page, page_size: PAGE_SIZE } },
          signal,
        }),
      ),
    enabled: Number.isInteger(employeeId),
    placeholderData: keepPreviousData,
  });
}

/** An employee's training on their page: one card per enrollment, the latest first. */
export function EmployeeTraining({
  accountId,
  employeeId,
  firstName,
}: {
  accountId: number;
  employeeId: number;
  firstName: string;
}) {
  const [page, setPage] = useState(1);
  const training = useEmployeeTraining(accountId, employeeId, page);
  const items = training.data?.results ?? [];
  const count = training.data?.count ?? 0;
  return (
    <PageSection title="Training">
      <ErrorAlert error={training.error} title="Could not load the training" />
      {training.isPending ? (
        <Loading />
      ) : count === 0 && !training.error ? (
        <EmptyState title="No training yet">
          Training campaigns {firstName} is enrolled in, and remedial training after a phishing simulation,
          will show here.
        </EmptyState>
      ) : (
        <Stack gap="sm" aria-busy={training.isFetching}>
          {items.map((item) => (
            <EnrollmentCard key={item.enrollment_id} accountId={accountId} item={item} />
          ))}
          {count > PAGE_SIZE && (
            <Pagination
              total={Math.ceil(count / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              aria-label="Training pages"
            />
          )}
        </Stack>
      )}
    </PageSection>
  );
}

function EnrollmentCard({ accountId, item }: { accountId: number; item: TrainingItem }) {
  const titles = item.courses.map((c) => c.title ?? 'Deleted course').join(', ') || 'No course';
  const passed = item.courses.filter((c) => c.passed_at !== null).length;
  const lessons = item.courses.reduce((n, c) => n + c.lessons, 0);
  const read = item.courses.reduce((n, c) => n + c.lessons_read, 0);
  return (
    <Card withBorder padding="md" component="article" aria-label={titles}>
      <Stack gap="sm">
        <Row justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 18rem' }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {titles}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Campaign{' '}
              <Anchor component={Link} to={accountPath(accountId, 'campaigns', item.campaign.id)} size="sm">
                {item.campaign.name}
              </Anchor>
              {item.remedial_for && (
                <>
                  {' '}
                  · assigned after failing{' '}
                  <Anchor
                    component={Link}
                    to={accountPath(accountId, 'phishing', 'campaigns', item.remedial_for.id, 'results')}
                    size="sm"
                  >
                    {item.remedial_for.name}
                  </Anchor>
                </>
              )}
            </Text>
          </Stack>
          <Row gap={6} wrap="nowrap">
            {item.remedial_for && (
              <Badge color="orange" variant="light" miw="max-content">
                Remedial
              </Badge>
            )}
            <StatusBadge status={item.status} color={ENROLLMENT_COLORS[item.status]} />
          </Row>
        </Row>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm" verticalSpacing="xs" component="dl" m={0}>
          <Fact label="Progress">
            {formatNumber(passed)} of {formatNumber(item.courses.length)}{' '}
            {item.courses.length === 1 ? 'course' : 'courses'} passed
            <Text component="span" display="block" size="sm" c="dimmed" fw={400}>
              {formatNumber(read)} of {formatNumber(lessons)} lessons read
            </Text>
          </Fact>
          <Fact label="Score">{item.score === null ? '—' : `${item.score} %`}</Fact>
          <Fact label="Assigned">
            <DateText value={item.enrolled_at} absolute />
          </Fact>
          <Fact label="Due">
            <DateText value={item.due_at} empty="No due date" absolute />
          </Fact>
          <Fact label="Started">
            <DateText value={item.started_at} empty="Not yet" absolute />
          </Fact>
          <Fact label="Completed">
            <DateText value={item.completed_at} empty="Not yet" absolute />
          </Fact>
        </SimpleGrid>
        {item.courses.length > 1 && (
          <Text size="sm" c="dimmed">
            {item.courses
              .map(
                (c) =>
                  `${c.title ?? 'Deleted course'}: ${c.passed_at ? 'passed' : c.attempts > 0 ? 'not passed yet' : 'quiz not taken'}${c.best_score === null ? '' : `, best ${c.best_score} %`}`,
              )
              .join(' · ')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
