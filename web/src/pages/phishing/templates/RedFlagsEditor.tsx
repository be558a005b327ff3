import { Button, Card, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useLimits } from '../../../api/limits';
import { IconButton } from '../../../components/IconButton';
import { PART_LABELS } from './template-format';
import type { RedFlag, RedFlagPart } from './template-types';

interface RedFlagsEditorProps {
  flags: RedFlag[];
  onChange: (flags: RedFlag[]) => void;
  /** The message for a flag's field (`red_flags[1].quote`), from the live check or the save. */
  error: (field: string) => string | undefined;
}

const WHERE: Record<RedFlagPart, string> = {
  sender: 'Exact text of the sender name or address',
  subject: 'Exact text of the subject',
  body: 'Exact text of the text body',
  link: 'The words of a link in the HTML body',
};

/** 2–6 red flags: what should have raised suspicion, and the text of the message it points at. */
export function RedFlagsEditor({ flags, onChange, error }: RedFlagsEditorProps) {
  const limits = useLimits().phishing_template;
  const patch = (i: number, change: Partial<RedFlag>) =>
    onChange(flags.map((f, j) => (j === i ? { ...f, ...change } : f)));
  return (
    <Stack gap="sm">
      {flags.map((flag, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: flags have no identity but their place
        <Card key={i} withBorder padding="sm">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600} size="sm">
                Red flag {i + 1}
              </Text>
              <IconButton
                tooltip="Remove"
                icon={IconTrash}
                color="red"
                label={`Remove red flag ${i + 1}`}
                disabled={flags.length <= limits.red_flags.min}
                onClick={() => onChange(flags.filter((_, j) => j !== i))}
              />
            </Group>
            <Group align="flex-start" gap="xs">
              <NativeSelect
                label="Points at"
                value={flag.part}
                onChange={(e) => patch(i, { part: e.currentTarget.value as RedFlagPart })}
                data={Object.entries(PART_LABELS).map(([value, label]) => ({ value, label }))}
                error={error(`red_flags[${i}].part`)}
                w="8rem"
              />
              <TextInput
                label="Quote"
                description={WHERE[flag.part]}
                value={flag.quote}
                maxLength={limits.red_flag_quote_max}
                onChange={(e) => patch(i, { quote: e.currentTarget.value })}
                error={error(`red_flags[${i}].quote`)}
                style={{ flex: '1 1 12rem' }}
              />
            </Group>
            <Textarea
              label="Why it is suspicious"
              autosize
              minRows={1}
              maxRows={4}
              maxLength={limits.red_flag_text_max}
              value={flag.text}
              onChange={(e) => patch(i, { text: e.currentTarget.value })}
              error={error(`red_flags[${i}].text`)}
            />
          </Stack>
        </Card>
      ))}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          disabled={flags.length >= limits.red_flags.max}
          onClick={() => onChange([...flags, { text: '', part: 'body', quote: '' }])}
        >
          Add red flag
        </Button>
        <Text size="xs" c="dimmed">
          {limits.red_flags.min} to {limits.red_flags.max} red flags
        </Text>
      </Group>
    </Stack>
  );
}
