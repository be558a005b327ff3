import { Checkbox, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { LongText } from '../../../components/LongText';
import { FIELD_LABELS, FIELDS, type ImportRow, type ColumnMapping as Mapping } from './csv';

interface ColumnMappingProps {
  /** Names of the columns (the header row, or "Column 1"… without one). */
  columns: string[];
  mapping: Mapping;
  onMappingChange: (mapping: Mapping) => void;
  hasHeader: boolean;
  onHasHeaderChange: (hasHeader: boolean) => void;
  /** The first rows as they would be imported. */
  preview: ImportRow[];
}

/** Which column holds first name, last name and email, and a preview of the first rows. */
export function ColumnMapping(props: ColumnMappingProps) {
  const { columns, mapping, onMappingChange, hasHeader, onHasHeaderChange, preview } = props;
  const options = columns.map((name, index) => ({
    value: String(index),
    label: name || `Column ${index + 1}`,
  }));

  return (
    <Stack>
      <Checkbox
        label="The first line holds column names"
        checked={hasHeader}
        onChange={(e) => onHasHeaderChange(e.currentTarget.checked)}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {FIELDS.map((field) => (
          <Select
            key={field}
            label={`${FIELD_LABELS[field]} column`}
            placeholder="Choose a column"
            data={options}
            value={mapping[field] === null ? null : String(mapping[field])}
            onChange={(value) =>
              onMappingChange({ ...mapping, [field]: value === null ? null : Number(value) })
            }
            error={mapping[field] === null ? 'Choose the column' : undefined}
            allowDeselect={false}
          />
        ))}
      </SimpleGrid>
      <div>
        <Title order={2} size="h4" mb="xs">
          Preview
        </Title>
        {preview.length === 0 ? (
          <Text c="dimmed">The file has no data rows.</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table striped withTableBorder aria-label="Preview of the first rows">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={1} style={{ whiteSpace: 'nowrap' }}>
                    Line
                  </Table.Th>
                  {FIELDS.map((field) => (
                    <Table.Th key={field}>{FIELD_LABELS[field]}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.map((row) => (
                  <Table.Tr key={row.line}>
                    <Table.Td>{row.line}</Table.Td>
                    {FIELDS.map((field) => (
                      <Table.Td key={field}>
                        <LongText>{row[field]}</LongText>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
    </Stack>
  );
}
