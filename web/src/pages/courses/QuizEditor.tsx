import { Button, Radio, Group as Row, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useLimits } from '../../api/limits';
import { IconButton } from '../../components/IconButton';
import { nestedError, newChoice, newQuestion, patchAt, type QuestionDraft } from './course-draft';
import { ItemsEditor } from './ItemsEditor';

interface QuizEditorProps {
  questions: QuestionDraft[];
  onChange: (questions: QuestionDraft[]) => void;
  error: unknown;
}

/** The quiz of a custom course: questions with 2–6 choices, one of them right, and an explanation. */
export function QuizEditor({ questions, onChange, error }: QuizEditorProps) {
  const change = (index: number, patch: Partial<QuestionDraft>) => onChange(patchAt(questions, index, patch));
  const { course: limits } = useLimits();
  const removeChoice = (q: QuestionDraft, i: number, j: number) =>
    change(i, {
      choices: q.choices.filter((_, k) => k !== j),
      // The right answer stays on the same choice (or the first one if it was removed).
      answer: q.answer === j ? 0 : q.answer > j ? q.answer - 1 : q.answer,
    });

  return (
    <ItemsEditor
      items={questions}
      onChange={onChange}
      noun="question"
      max={limits.questions_max}
      newItem={newQuestion}
      head={(q, i) => (
        <TextInput
          label="Question"
          value={q.question}
          onChange={(e) => change(i, { question: e.currentTarget.value })}
          error={nestedError(error, 'quiz', i, 'question')}
        />
      )}
    >
      {(q, i) => (
        <>
          <Radio.Group
            label="Choices"
            description="Mark the right answer."
            value={String(q.answer)}
            onChange={(value) => change(i, { answer: Number(value) })}
            error={nestedError(error, 'quiz', i, 'choices') ?? nestedError(error, 'quiz', i, 'answer')}
          >
            <Stack gap="xs" mt="xs">
              {q.choices.map((choice, j) => (
                <Row key={choice.id} wrap="nowrap" gap="sm" align="center">
                  <Radio value={String(j)} aria-label={`Choice ${j + 1} is the right answer`} />
                  <TextInput
                    aria-label={`Choice ${j + 1}`}
                    placeholder={`Choice ${j + 1}`}
                    value={choice.text}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      change(i, { choices: q.choices.map((c, k) => (k === j ? { ...c, text } : c)) });
                    }}
                    error={nestedError(error, 'quiz', i, 'choices', j)}
                    style={{ flex: 1 }}
                  />
                  <IconButton
                    tooltip="Remove choice"
                    label={`Remove choice ${j + 1}`}
                    icon={IconX}
                    iconSize={16}
                    color="gray"
                    disabled={q.choices.length <= limits.choices.min}
                    onClick={() => removeChoice(q, i, j)}
                  />
                </Row>
              ))}
            </Stack>
          </Radio.Group>
          <Row gap="sm">
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconPlus size={14} aria-hidden />}
              disabled={q.choices.length >= limits.choices.max}
              onClick={() => change(i, { choices: [...q.choices, newChoice()] })}
            >
              Add choice
            </Button>
            <Text size="xs" c="dimmed">
              {limits.choices.min} to {limits.choices.max} choices
            </Text>
          </Row>
          <Textarea
            label="Explanation"
            description="Shown to the learner after answering: why the right answer is right."
            autosize
            minRows={2}
            maxRows={6}
            value={q.explanation}
            onChange={(e) => change(i, { explanation: e.currentTarget.value })}
            error={nestedError(error, 'quiz', i, 'explanation')}
          />
        </>
      )}
    </ItemsEditor>
  );
}
