import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { formatNumber } from '../../../components/format';
import { LongText } from '../../../components/LongText';
import { pagedTableProps, WIDE_ONLY } from '../../../components/table';
import type { ImportOutcome, RowOutcome } from './run';

interface CountProps {
  label: string;
  value: number;
  color: string;
}

function Count({ label, value, color }: CountProps) {
  return (
    <Paper withBorder p="md" style={{ borderLeft: `4px solid var(--mantine-color-${color}-6)` }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {formatNumber(value)}
      </Text>
    </Paper>
  );
}

const PAGE = 25;

/** Counts of an import (or its dry run) and a table of the rows that failed, with line numbers. */
export function ImportReport({ outcome, dryRun }: { outcome: ImportOutcome; dryRun: boolean }) {
  const [page, setPage] = useState(1);
  const failing = outcome.rows.filter((r) => r.status === 'invalid' || r.status === 'duplicate');
  const shown = failing.slice((page - 1) * PAGE, page * PAGE);

  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, md: 4 }} aria-label="Import counts">
        <Count label={dryRun ? 'New employees' : 'Created'} value={outcome.fresh} color="teal" />
        <Count label="Already existing" value={outcome.existing} color="blue" />
        <Count label="Invalid" value={outcome.invalid} color="red" />
        <Count label="Duplicate in file" value={outcome.duplicate} color="orange" />
      </SimpleGrid>
      {outcome.existing > 0 && (
        <Text size="sm" c="dimmed">
          Rows whose email already belongs to an employee are left unchanged.
        </Text>
      )}
      {failing.length > 0 && (
        <section aria-labelledby="failing-rows">
          <Title order={2} size="h4" id="failing-rows" mb="xs">
            Rows with problems ({formatNumber(failing.length)})
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {dryRun
              ? 'These rows will be skipped. Fix them in the file and choose it again, or import the rest.'
              : 'These rows were skipped.'}
          </Text>
          <DataTable<RowOutcome>
            {...pagedTableProps}
            minHeight={0}
            aria-label="Rows with problems"
            idAccessor={(r) => r.row.line}
            records={shown}
            totalRecords={failing.length}
            recordsPerPage={PAGE}
            page={page}
            onPageChange={setPage}
            columns={[
              { accessor: 'line', title: 'Line', width: 70, render: (r) => r.row.line },
              {
                accessor: 'status',
                title: 'Problem',
                // A badge shrinks to "INV…" in a column squeezed by long values: this one never is.
                width: 110,
                render: (r) => (
                  <Badge color={r.status === 'invalid' ? 'red' : 'orange'} variant="light">
                    {r.status === 'invalid' ? 'Invalid' : 'Duplicate'}
                  </Badge>
                ),
              },
              {
                accessor: 'email',
                title: 'Email',
                render: (r) => <LongText>{r.row.email || '(empty)'}</LongText>,
              },
              {
                accessor: 'name',
                title: 'Name',
                render: (r) => (
                  <LongText>{`${r.row.first_name} ${r.row.last_name}`.trim() || '(empty)'}</LongText>
                ),
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'messages',
                title: 'Message',
                render: (r) => (
                  <Group gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {r.messages.map((m) => (
                      <Text component="li" size="sm" key={m} style={{ overflowWrap: 'anywhere' }}>
                        {m}
                      </Text>
                    ))}
                  </Group>
                ),
              },
            ]}
          />
        </section>
      )}
    </Stack>
  );
}
