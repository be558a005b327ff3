import { NumberInput, Radio, Stack } from '@mantine/core';
import { useLimits } from '../../api/limits';
import type { Course } from '../../api/types';

export type AnswersShown = Course['answers_shown'];

/** The quiz rules as a form holds them: an empty number of attempts is unlimited. */
export interface QuizRulesDraft {
  maxAttempts: number | string;
  answersShown: AnswersShown;
}

export const rulesDraftOf = (course: Course | null): QuizRulesDraft => ({
  maxAttempts: course?.max_attempts ?? '',
  answersShown: course?.answers_shown ?? 'passed_or_last',
});

export const rulesInput = (draft: QuizRulesDraft) => ({
  max_attempts: draft.maxAttempts === '' ? null : Number(draft.maxAttempts),
  answers_shown: draft.answersShown,
});

const ANSWERS: { value: AnswersShown; label: string; description: string }[] = [
  {
    value: 'passed_or_last',
    label: 'Once passed, or after the last attempt',
    description: 'Recommended: a failed attempt shows the score only, so a retry tests what was learned.',
  },
  {
    value: 'always',
    label: 'After every attempt',
    description: 'Failed attempts show the right answers too.',
  },
  { value: 'never', label: 'Never', description: 'Learners see their score, never the right answers.' },
];

/** How a course's rules read in a sentence, e.g. "3 attempts · answers once passed or after the last attempt". */
export function rulesSummary(course: Pick<Course, 'max_attempts' | 'answers_shown'>): {
  attempts: string;
  answers: string;
} {
  return {
    attempts:
      course.max_attempts === null
        ? 'Unlimited'
        : `${course.max_attempts} ${course.max_attempts === 1 ? 'attempt' : 'attempts'}`,
    answers: ANSWERS.find((a) => a.value === course.answers_shown)?.label ?? course.answers_shown,
  };
}

interface QuizRulesFieldsProps {
  value: QuizRulesDraft;
  onChange: (value: QuizRulesDraft) => void;
  errors: { maxAttempts?: string; answersShown?: string };
}

/** Attempts allowed and when the right answers are shown: the course form's and the rules dialog's fields. */
export function QuizRulesFields({ value, onChange, errors }: QuizRulesFieldsProps) {
  const limits = useLimits();
  return (
    <Stack gap="md">
      <NumberInput
        label="Attempts allowed"
        description="Empty for unlimited. An attempt beyond it is refused; the best score counts."
        placeholder="Unlimited"
        {...limits.course.max_attempts}
        allowDecimal={false}
        allowNegative={false}
        value={value.maxAttempts}
        onChange={(maxAttempts) => onChange({ ...value, maxAttempts })}
        error={errors.maxAttempts}
        maw={260}
      />
      <Radio.Group
        label="Right answers shown"
        value={value.answersShown}
        onChange={(answersShown) => onChange({ ...value, answersShown: answersShown as AnswersShown })}
        error={errors.answersShown}
      >
        <Stack gap="xs" mt="xs">
          {ANSWERS.map((a) => (
            <Radio key={a.value} value={a.value} label={a.label} description={a.description} />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}
