import { Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Course } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';
import { QuizRulesFields, rulesDraftOf, rulesInput } from './QuizRulesFields';

interface QuizRulesModalProps {
  accountId: number;
  course: Course;
  opened: boolean;
  onClose: () => void;
}

/** A course's quiz rules for this account: built-in courses too (their content stays as shipped). */
export function QuizRulesModal({ accountId, course, opened, onClose }: QuizRulesModalProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => rulesDraftOf(course));
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/accounts/{accountId}/courses/{courseKey}/quiz-rules', {
          params: { path: { accountId, courseKey: course.key } },
          body: rulesInput(draft),
        }),
      ),
    onSuccess: (rules) => {
      queryClient.setQueryData(['course', accountId, course.key], { ...course, ...rules });
      invalidateAccount(queryClient, accountId, 'courses');
      notifications.show({ color: 'teal', message: `Saved the quiz rules of "${course.title}"` });
      onClose();
    },
  });
  useOnOpen(opened, () => {
    setDraft(rulesDraftOf(course));
    save.reset();
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Quiz rules" size="lg">
      <SaveForm
        save={save}
        fields={['max_attempts', 'answers_shown']}
        fieldLabels={FORM_FIELDS.quizRules.names}
        intro={
          <Text size="sm">
            For <strong>{course.title}</strong> in every campaign of this account, from the next attempt on.
            Attempts already made stay as they were.
          </Text>
        }
        onCancel={onClose}
      >
        <QuizRulesFields
          value={draft}
          onChange={setDraft}
          errors={{
            maxAttempts: fieldError(save.error, 'max_attempts'),
            answersShown: fieldError(save.error, 'answers_shown'),
          }}
        />
      </SaveForm>
    </Modal>
  );
}
