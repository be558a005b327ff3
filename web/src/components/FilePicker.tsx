import { Input } from '@mantine/core';
import { useId } from '@mantine/hooks';
import type { ReactNode } from 'react';
import classes from './FilePicker.module.css';

interface FilePickerProps {
  label: string;
  description?: ReactNode;
  /** ".csv,text/csv" */
  accept: string;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  maw?: number;
}

/**
 * A labelled native file input: keyboard and screen-reader friendly as browsers make it, and
 * reachable by tests with getByLabel(label).setInputFiles(…).
 */
export function FilePicker({ label, description, accept, onChange, disabled, maw }: FilePickerProps) {
  const id = useId();
  return (
    <Input.Wrapper label={label} description={description} id={id} maw={maw}>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        className={classes.input}
        aria-describedby={description ? `${id}-description` : undefined}
        onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null)}
      />
    </Input.Wrapper>
  );
}
