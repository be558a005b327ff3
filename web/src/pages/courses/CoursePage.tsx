import {
  Accordion,
  Badge,
  Button,
  Card,
  List,
  Group as Row,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Typography,
} from '@mantine/core';
import { IconCheck, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import type { Course } from '../../api/types';
import { BackLink } from '../../components/BackLink';
import { EditDeleteButtons } from '../../components/EditDeleteButtons';
import { Fact } from '../../components/Fact';
import { formatNumber, plural } from '../../components/format';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { accountPath, useAccount } from '../../layout/account-context';
import { CourseKindBadge } from './CoursesPage';
import { DeleteCourseDialog } from './DeleteCourseDialog';
import classes from './lesson.module.css';
import { rulesSummary } from './QuizRulesFields';
import { QuizRulesModal } from './QuizRulesModal';

/** /a/:accountId/courses/:courseKey — a course as the learner gets it: lessons, then the quiz with its answers. */
export function CoursePage() {
  const account = useAccount();
  const key = useParams().courseKey ?? '';
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const [editingRules, setEditingRules] = useState(false);
  const course = useQuery({
    queryKey: ['course', account.id, key],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/courses/{courseKey}', {
          params: { path: { accountId: account.id, courseKey: key } },
        }),
      ),
  });
  const back = <BackLink to={accountPath(account.id, 'courses')}>Courses</BackLink>;

  if (course.isPending) return <Loading />;
  if (!course.data) {
    return <NotFoundPage thing="course" back={back} error={course.error} />;
  }
  const c = course.data;

  return (
    <>
      <PageHeader
        title={c.title}
        above={back}
        description={
          <Row gap="xs" component="span">
            <CourseKindBadge builtIn={c.built_in} />
            <Text component="span">{c.summary}</Text>
          </Row>
        }
        actions={
          c.built_in ? undefined : (
            <EditDeleteButtons
              noun="course"
              onEdit={() => navigate(accountPath(account.id, 'courses', c.key, 'edit'))}
              onDelete={() => setDeleting(true)}
            />
          )
        }
      />
      <Stack gap="lg">
        <Card withBorder padding="lg">
          <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0}>
            <Fact large label="Time">
              {c.minutes} min
            </Fact>
            <Fact large label="Pass mark">
              {c.pass_mark}%
            </Fact>
            <Fact large label="Lessons">
              {formatNumber(c.lessons.length)}
            </Fact>
            <Fact large label="Quiz">
              {plural(c.quiz.length, 'question')}
            </Fact>
          </SimpleGrid>
        </Card>
        <QuizRules course={c} onEdit={() => setEditingRules(true)} />
        <Lessons course={c} />
        <Quiz course={c} />
      </Stack>
      <QuizRulesModal
        accountId={account.id}
        course={c}
        opened={editingRules}
        onClose={() => setEditingRules(false)}
      />
      <DeleteCourseDialog
        course={c}
        opened={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(accountPath(account.id, 'courses'), { replace: true })}
      />
    </>
  );
}

/** Attempts allowed and when the right answers are shown: editable for built-in courses too. */
function QuizRules({ course, onEdit }: { course: Course; onEdit: () => void }) {
  const summary = rulesSummary(course);
  return (
    <PageSection
      title="Quiz rules"
      actions={
        <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
          Edit quiz rules
        </Button>
      }
    >
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
          <Fact label="Attempts allowed">{summary.attempts}</Fact>
          <Fact label="Right answers shown">{summary.answers}</Fact>
        </SimpleGrid>
        {course.built_in && (
          <Text size="sm" c="dimmed" mt="sm">
            A built-in course's lessons and questions stay as shipped; its quiz rules are this account's own.
          </Text>
        )}
      </Card>
    </PageSection>
  );
}

function Lessons({ course }: { course: Course }) {
  return (
    <PageSection title="Lessons">
      <Accordion variant="separated" multiple defaultValue={['0']}>
        {course.lessons.map((lesson, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in the course's order
          <Accordion.Item key={i} value={String(i)}>
            <Accordion.Control>
              <Text fw={600}>
                {i + 1}. {lesson.title}
              </Text>
            </Accordion.Control>
            <Accordion.Panel>
              {/* The one place HTML is inserted: the lesson as the server rendered and made safe for learners. */}
              <Typography maw={760} className={classes.lesson}>
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-rendered Markdown, raw HTML off (src/modules/courses/markdown.ts) */}
                <div dangerouslySetInnerHTML={{ __html: lesson.html }} />
              </Typography>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </PageSection>
  );
}

function Quiz({ course }: { course: Course }) {
  return (
    <PageSection title="Quiz">
      <Text c="dimmed" size="sm">
        Learners pass with {course.pass_mark}% of the answers right. The right answers are marked.
      </Text>
      <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {course.quiz.map((q, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in the course's order
          <Card key={i} withBorder padding="md" component="li">
            <Text fw={600} mb="xs">
              {i + 1}. {q.question}
            </Text>
            <List spacing={6} listStyleType="none" aria-label={`Choices for question ${i + 1}`}>
              {q.choices.map((choice, j) => (
                <List.Item
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in the course's order
                  key={j}
                  icon={
                    <ThemeIcon
                      size={20}
                      radius="xl"
                      variant={j === q.answer ? 'filled' : 'light'}
                      color={j === q.answer ? 'teal.8' : 'gray'}
                      aria-hidden
                    >
                      {j === q.answer ? <IconCheck size={13} /> : <span />}
                    </ThemeIcon>
                  }
                >
                  <Text span fw={j === q.answer ? 600 : 400}>
                    {choice}
                  </Text>
                  {j === q.answer && (
                    <Badge ml="xs" size="sm" color="teal" variant="light">
                      Right answer
                    </Badge>
                  )}
                </List.Item>
              ))}
            </List>
            {q.explanation && (
              <Text size="sm" c="dimmed" mt="sm">
                {q.explanation}
              </Text>
            )}
          </Card>
        ))}
      </Stack>
    </PageSection>
  );
}
