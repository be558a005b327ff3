import { Anchor, Badge, Card, Group as Row, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Campaign } from '../../api/types';
import { DateText } from '../../components/DateText';
import { Fact } from '../../components/Fact';
import { accountPath } from '../../layout/account-context';
import { remindersText } from './campaign-format';

/** The campaign's settings: dates, reminders, courses and target groups (as links). */
export function CampaignFacts({ accountId, campaign: c }: { accountId: number; campaign: Campaign }) {
  const none = (text: string) => (
    <Text component="span" c="dimmed" fw={400}>
      {text}
    </Text>
  );
  return (
    <Card withBorder padding="lg" component="section" aria-label="Settings">
      <SimpleGrid cols={{ base: 2, md: 3 }} component="dl" m={0} spacing="lg" verticalSpacing="md">
        <Fact label={c.launched_at ? 'Started' : 'Start date'}>
          <DateText value={c.launched_at ?? c.start_date} absolute empty="Not set" />
        </Fact>
        <Fact label="Due date">
          <DateText value={c.due_date} absolute empty="Not set" />
        </Fact>
        <Fact label="Reminders">{remindersText(c.reminder_days)}</Fact>
        <Fact label="Courses">
          {c.courses.length === 0
            ? none('None yet')
            : c.courses.map((course, i) => (
                <Row key={course.key} gap={6} component="span" wrap="nowrap" display="flex" mt={i ? 4 : 0}>
                  <Anchor component={Link} to={accountPath(accountId, 'courses', course.key)}>
                    {course.title}
                  </Anchor>
                  {!course.built_in && (
                    <Badge size="xs" variant="light">
                      Custom
                    </Badge>
                  )}
                </Row>
              ))}
        </Fact>
        <Fact label="Target groups">
          {c.groups.length === 0
            ? none('None yet')
            : c.groups.map((g, i) => (
                <span key={g.id}>
                  {i > 0 && ', '}
                  <Anchor component={Link} to={accountPath(accountId, 'groups', g.id)}>
                    {g.name}
                  </Anchor>
                </span>
              ))}
        </Fact>
        <Fact label="People who join a target group later">
          {c.enroll_new_members ? 'Enrolled while the campaign is active' : 'Not enrolled'}
        </Fact>
        {c.completed_at && (
          <Fact label="Completed">
            <DateText value={c.completed_at} absolute />
          </Fact>
        )}
        {c.archived_at && (
          <Fact label="Archived">
            <DateText value={c.archived_at} absolute />
          </Fact>
        )}
        <Fact label="Created">
          <DateText value={c.created_at} absolute />
        </Fact>
      </SimpleGrid>
    </Card>
  );
}
