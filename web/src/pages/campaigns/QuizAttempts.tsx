import { Badge, Button, Popover, Stack, Table, Text } from '@mantine/core';
import type { Campaign, Enrollment } from '../../api/types';
import { DateText } from '../../components/DateText';

/** A person's attempt count; opens the list of their quiz attempts: course, number, score, passed, time. */
export function QuizAttempts({ enrollment, campaign }: { enrollment: Enrollment; campaign: Campaign }) {
  const count = enrollment.attempt_count;
  if (count === 0) {
    return (
      <Text size="sm" c="dimmed" span>
        None
      </Text>
    );
  }
  const titles = new Map(campaign.courses.map((c) => [c.key, c.title]));
  const name = `${enrollment.employee.first_name} ${enrollment.employee.last_name}`;
  const unrecorded = count - enrollment.attempts.length;
  return (
    // As wide as its rows (a course title, a score badge, a date on one line each), never wider
    // than the screen: on a phone the table scrolls sideways inside it.
    <Popover
      position="bottom-end"
      withArrow
      shadow="md"
      width="max-content"
      styles={{ dropdown: { maxWidth: 'calc(100vw - 1rem)' } }}
    >
      <Popover.Target>
        <Button variant="subtle" size="compact-sm" aria-label={`${count} quiz attempts by ${name}`}>
          {count}
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label={`Quiz attempts by ${name}`}>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Quiz attempts
          </Text>
          <Table.ScrollContainer minWidth={0} type="native">
            <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Course</Table.Th>
                  <Table.Th ta="right">Score</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {enrollment.attempts.map((a) => (
                  <Table.Tr key={`${a.course_key}-${a.number}`}>
                    <Table.Td>
                      {titles.get(a.course_key) ?? a.course_key}{' '}
                      <Text span size="xs" c="dimmed">
                        #{a.number}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Badge size="sm" variant="light" color={a.passed ? 'teal' : 'red'}>
                        {a.score}% {a.passed ? 'passed' : 'failed'}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <DateText value={a.submitted_at} absolute />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {unrecorded > 0 && (
            <Text size="xs" c="dimmed">
              {unrecorded} earlier {unrecorded === 1 ? 'attempt was' : 'attempts were'} counted before each
              attempt was kept.
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
