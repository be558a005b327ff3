import { Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useLimits } from '../../api/limits';
import { type LessonDraft, nestedError, newLesson, patchAt } from './course-draft';
import { ItemsEditor } from './ItemsEditor';
import { MarkdownPreview } from './MarkdownPreview';

interface LessonsEditorProps {
  lessons: LessonDraft[];
  onChange: (lessons: LessonDraft[]) => void;
  error: unknown;
}

/** The lessons of a custom course: add, remove, reorder; each a title and Markdown with a preview. */
export function LessonsEditor({ lessons, onChange, error }: LessonsEditorProps) {
  const change = (index: number, patch: Partial<LessonDraft>) => onChange(patchAt(lessons, index, patch));
  const limits = useLimits();

  return (
    <ItemsEditor
      items={lessons}
      onChange={onChange}
      noun="lesson"
      max={limits.course.lessons_max}
      newItem={newLesson}
      head={(lesson, i) => (
        <TextInput
          label="Title"
          value={lesson.title}
          onChange={(e) => change(i, { title: e.currentTarget.value })}
          error={nestedError(error, 'lessons', i, 'title')}
          maxLength={limits.name_max}
        />
      )}
    >
      {(lesson, i) => (
        <Tabs defaultValue="write" variant="outline" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="write">Write</Tabs.Tab>
            <Tabs.Tab value="preview">Preview</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="write" pt="xs">
            <Textarea
              label="Text (Markdown)"
              description="## for a heading, **bold**, - for a list, [text](https://…) for a link. HTML is shown as text."
              autosize
              minRows={6}
              maxRows={24}
              value={lesson.markdown}
              onChange={(e) => change(i, { markdown: e.currentTarget.value })}
              error={nestedError(error, 'lessons', i, 'markdown')}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="preview" pt="xs">
            {lesson.markdown.trim() ? (
              <MarkdownPreview source={lesson.markdown} />
            ) : (
              <Text c="dimmed" size="sm">
                Nothing to preview yet.
              </Text>
            )}
          </Tabs.Panel>
        </Tabs>
      )}
    </ItemsEditor>
  );
}
