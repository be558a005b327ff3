import { Card, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { useLimits } from '../../api/limits';
import type { Course } from '../../api/types';
import { BackLink } from '../../components/BackLink';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { SaveForm } from '../../components/SaveForm';
import { DescriptionInput, NameInput } from '../../components/TextInputs';
import { accountPath, useAccount } from '../../layout/account-context';
import { fieldPath, lessonsOf, questionsOf, toInput } from './course-draft';
import { LessonsEditor } from './LessonsEditor';
import { QuizEditor } from './QuizEditor';
import { QuizRulesFields, rulesDraftOf, rulesInput } from './QuizRulesFields';

/** /a/:accountId/courses/new and …/courses/:courseKey/edit (custom courses only). */
export function CourseFormPage() {
  const account = useAccount();
  const key = useParams().courseKey;
  const course = useQuery({
    queryKey: ['course', account.id, key],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/courses/{courseKey}', {
          params: { path: { accountId: account.id, courseKey: key ?? '' } },
        }),
      ),
    enabled: key !== undefined,
  });
  const back = (
    <BackLink to={accountPath(account.id, 'courses', ...(key ? [key] : []))}>
      {key ? (course.data?.title ?? 'Course') : 'Courses'}
    </BackLink>
  );

  if (key === undefined) return <CourseForm course={null} back={back} />;
  if (course.isPending) return <Loading />;
  if (!course.data || course.data.built_in) {
    return (
      <>
        <PageHeader
          title={course.data ? 'Built-in courses cannot change' : 'Course not found'}
          above={back}
        />
        <ErrorAlert
          error={
            course.error ??
            new Error(course.data ? 'Create a course of your own instead.' : 'This course does not exist.')
          }
        />
      </>
    );
  }
  return <CourseForm key={course.data.key} course={course.data} back={back} />;
}

function CourseForm({ course, back }: { course: Course | null; back: ReactNode }) {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(course?.title ?? '');
  const [summary, setSummary] = useState(course?.summary ?? '');
  const [minutes, setMinutes] = useState<number | string>(course?.minutes ?? 10);
  const [passMark, setPassMark] = useState<number | string>(course?.pass_mark ?? 80);
  const [lessons, setLessons] = useState(() => lessonsOf(course));
  const [questions, setQuestions] = useState(() => questionsOf(course));
  const [rules, setRules] = useState(() => rulesDraftOf(course));
  const limits = useLimits();

  const save = useMutation({
    mutationFn: () => {
      const input = {
        ...toInput({ title, summary, minutes, pass_mark: passMark }, lessons, questions),
        ...rulesInput(rules),
      };
      return course
        ? call(
            api.PUT('/accounts/{accountId}/courses/{courseKey}', {
              params: { path: { accountId: account.id, courseKey: course.key } },
              body: input,
            }),
          )
        : call(
            api.POST('/accounts/{accountId}/courses', {
              params: { path: { accountId: account.id } },
              body: input,
            }),
          );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['course', account.id, saved.key], saved);
      invalidateAccount(queryClient, account.id, 'courses', 'campaign', 'campaigns');
      notifications.show({
        color: 'teal',
        message: course ? `Saved course "${saved.title}"` : `Created course "${saved.title}"`,
      });
      navigate(accountPath(account.id, 'courses', saved.key));
    },
  });
  const error = (field: string) => fieldError(save.error, field);
  // Fields some input shows already; the alert lists only the others.
  const shown = [
    'title',
    'summary',
    'minutes',
    'pass_mark',
    'lessons',
    'quiz',
    'max_attempts',
    'answers_shown',
  ];
  lessons.forEach((_, i) => {
    for (const f of ['title', 'markdown']) shown.push(fieldPath(['lessons', i, f]));
  });
  questions.forEach((q, i) => {
    for (const f of ['question', 'choices', 'answer', 'explanation']) shown.push(fieldPath(['quiz', i, f]));
    q.choices.forEach((_, j) => {
      shown.push(fieldPath(['quiz', i, 'choices', j]));
    });
  });

  return (
    <>
      <PageHeader
        title={course ? `Edit ${course.title}` : 'New course'}
        above={back}
        description="Lessons in Markdown, then a short quiz; campaigns can use the course as soon as it is saved."
      />
      <SaveForm
        fieldLabels={FORM_FIELDS.course.names}
        save={save}
        fields={shown}
        errorTitle="Could not save the course"
        onCancel={() => navigate(-1)}
        submitLabel={course ? 'Save changes' : 'Create course'}
        maw={860}
        gap="xl"
      >
        <Card withBorder padding="lg">
          <Stack gap="md">
            <NameInput label="Title" value={title} onChange={setTitle} error={error('title')} />
            <DescriptionInput
              label="Summary"
              description="One or two sentences: what learners will be able to do afterwards."
              maxRows={5}
              maxLength={limits.course.summary_max}
              value={summary}
              onChange={setSummary}
              error={error('summary')}
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <NumberInput
                label="Minutes"
                description="Time to read the lessons and take the quiz"
                {...limits.course.minutes}
                allowDecimal={false}
                value={minutes}
                onChange={setMinutes}
                error={error('minutes')}
              />
              <NumberInput
                label="Pass mark"
                description="Percent of right answers needed to pass"
                {...limits.course.pass_mark}
                allowDecimal={false}
                suffix="%"
                value={passMark}
                onChange={setPassMark}
                error={error('pass_mark')}
              />
            </SimpleGrid>
          </Stack>
        </Card>
        <PageSection title="Lessons" error={error('lessons')}>
          <LessonsEditor lessons={lessons} onChange={setLessons} error={save.error} />
        </PageSection>
        <PageSection title="Quiz" error={error('quiz')}>
          <QuizEditor questions={questions} onChange={setQuestions} error={save.error} />
        </PageSection>
        <PageSection title="Quiz rules">
          <Card withBorder padding="lg">
            <QuizRulesFields
              value={rules}
              onChange={setRules}
              errors={{ maxAttempts: error('max_attempts'), answersShown: error('answers_shown') }}
            />
          </Card>
        </PageSection>
      </SaveForm>
    </>
  );
}
