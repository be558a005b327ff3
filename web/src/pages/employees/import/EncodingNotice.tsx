import { Alert, NativeSelect, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { encodingLabel, LEGACY_ENCODINGS, type LegacyEncoding } from './encoding';

interface EncodingNoticeProps {
  /** The legacy encoding the file was read as. */
  encoding: LegacyEncoding;
  onChange: (encoding: LegacyEncoding) => void;
  disabled?: boolean;
}

/**
 * Says that a file was not UTF-8 and which encoding it was read as, and lets the user choose
 * another. Its heading is plain bold text, not Mantine's `title` (which would label the alert).
 */
export function EncodingNotice({ encoding, onChange, disabled }: EncodingNoticeProps) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} mt="md" maw={720}>
      <Text fw={600} size="sm">
        This file is not UTF-8: it was read as {encodingLabel(encoding)}.
      </Text>
      <Text size="sm">
        Excel on Windows saves “CSV” files in such an encoding (Windows-1252 in Western Europe). Check the
        names in the preview below: if letters such as ü, é or ß look wrong, choose the encoding the file was
        saved in, or save it from Excel as “CSV UTF-8” and choose it again.
      </Text>
      <NativeSelect
        label="File encoding"
        data={LEGACY_ENCODINGS.map((e) => ({ value: e.value, label: e.label }))}
        value={encoding}
        onChange={(e) => onChange(e.currentTarget.value as LegacyEncoding)}
        disabled={disabled}
        maw={320}
        mt="sm"
      />
    </Alert>
  );
}
