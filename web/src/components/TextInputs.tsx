import { Textarea, type TextareaProps, TextInput, type TextInputProps } from '@mantine/core';
import { useLimits } from '../api/limits';

type Text<Props> = Omit<Props, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** A name or title: required, at most the server's length, focused when the form opens. */
export function NameInput({ onChange, ...props }: Text<TextInputProps>) {
  const { name_max } = useLimits();
  return (
    <TextInput
      label="Name"
      required
      data-autofocus
      maxLength={name_max}
      onChange={(e) => onChange(e.currentTarget.value)}
      {...props}
    />
  );
}

/** A description of a few lines: optional, at most the server's length, growing with its text. */
export function DescriptionInput({ onChange, ...props }: Text<TextareaProps>) {
  const { description_max } = useLimits();
  return (
    <Textarea
      label="Description"
      description="Optional"
      autosize
      minRows={2}
      maxRows={6}
      maxLength={description_max}
      onChange={(e) => onChange(e.currentTarget.value)}
      {...props}
    />
  );
}
