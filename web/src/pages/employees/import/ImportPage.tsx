import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FORM_FIELDS } from '../../../api/form-fields';
import { useLimits } from '../../../api/limits';
import { BackLink } from '../../../components/BackLink';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FilePicker } from '../../../components/FilePicker';
import { formatNumber, plural } from '../../../components/format';
import { invalidateAccount } from '../../../components/invalidate';
import { PageHeader } from '../../../components/PageHeader';
import { accountPath, useAccount } from '../../../layout/account-context';
import { ColumnMapping } from './ColumnMapping';
import {
  looksLikeData,
  type ColumnMapping as Mapping,
  mapRows,
  type ParsedCsv,
  parseCsv,
  recogniseColumns,
} from './csv';
import { EncodingNotice } from './EncodingNotice';
import { decodeFile, type LegacyEncoding } from './encoding';
import { ImportReport } from './ImportReport';
import { type ImportOutcome, runImport } from './run';

type Phase = 'check' | 'import';

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={`step-${n}`}>
      <Title order={2} size="h3" id={`step-${n}`} mb="md">
        {n}. {title}
      </Title>
      {children}
    </Paper>
  );
}

/** /a/:accountId/employees/import — choose a CSV, map columns, check every row, then import. */
export function ImportPage() {
  const account = useAccount();
  const limits = useLimits();
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState<ParsedCsv | null>(null);
  /** The chosen file's bytes, and the encoding it was read as when it is not UTF-8. */
  const [file, setFile] = useState<{ bytes: Uint8Array; legacy: LegacyEncoding | null } | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const [hasHeader, setHasHeader] = useState(true);
  const [mapping, setMapping] = useState<Mapping>({ first_name: null, last_name: null, email: null });
  const [running, setRunning] = useState<Phase | null>(null);
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [check, setCheck] = useState<ImportOutcome | null>(null);
  const [result, setResult] = useState<ImportOutcome | null>(null);
  const [runError, setRunError] = useState<{ phase: Phase; error: unknown } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const rows = useMemo(
    () => (csv ? mapRows(csv.lines.slice(hasHeader ? 1 : 0), mapping) : []),
    [csv, hasHeader, mapping],
  );
  const columns = useMemo(() => {
    if (!csv) return [];
    const header = csv.lines[0]?.cells ?? [];
    return Array.from({ length: csv.width }, (_, i) =>
      hasHeader && header[i] ? header[i] : `Column ${i + 1}`,
    );
  }, [csv, hasHeader]);
  const mapped = mapping.first_name !== null && mapping.last_name !== null && mapping.email !== null;

  /** Reads the file's rows (in `legacy` when it is not UTF-8) and guesses its columns. */
  const load = (bytes: Uint8Array, legacy?: LegacyEncoding) => {
    const decoded = decodeFile(bytes, legacy);
    const parsed = parseCsv(decoded.text);
    const first = parsed.lines[0]?.cells ?? [];
    const header = !looksLikeData(first);
    setHasHeader(header);
    setMapping(header ? recogniseColumns(first) : { first_name: 0, last_name: 1, email: 2 });
    setFile({ bytes, legacy: decoded.legacy });
    setCsv(parsed);
  };
  const choose = async (chosen: File | null) => {
    setCsv(null);
    setFile(null);
    setCheck(null);
    setResult(null);
    setReadError(null);
    setRunError(null);
    if (!chosen) return;
    try {
      load(new Uint8Array(await chosen.arrayBuffer()));
    } catch (error) {
      setReadError(error);
    }
  };
  const changeSettings = (next: () => void) => {
    next();
    setCheck(null);
    setResult(null);
  };

  const run = async (phase: Phase) => {
    const controller = new AbortController();
    abort.current = controller;
    setRunning(phase);
    setRunError(null);
    const onProgress = (done: number, total: number) => setProgress({ done, total });
    const outcome = await runImport(
      account.id,
      limits.import_rows,
      rows,
      phase === 'check',
      onProgress,
      controller.signal,
    );
    if (outcome.error) setRunError({ phase, error: outcome.error });
    if (phase === 'check') setCheck(outcome);
    else setResult(outcome);
    setRunning(null);
    if (phase === 'import') {
      invalidateAccount(queryClient, account.id, 'employees', 'overview');
    }
  };

  const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
  const progressBar = running && (
    <Stack gap={4}>
      <Progress
        value={percent}
        size="lg"
        striped
        animated
        aria-label={running === 'check' ? 'Check progress' : 'Import progress'}
      />
      <Group justify="space-between">
        <Text size="sm" aria-live="polite">
          {running === 'check' ? 'Checked' : 'Imported'} {formatNumber(progress.done)} of{' '}
          {plural(progress.total, 'row')}
        </Text>
        <Button size="compact-sm" variant="subtle" color="red" onClick={() => abort.current?.abort()}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );

  return (
    <>
      <PageHeader
        title="Import employees"
        description="Add many employees at once from a CSV file with first name, last name and email columns."
        above={<BackLink to={accountPath(account.id, 'employees')}>Employees</BackLink>}
      />
      <Stack gap="lg">
        <Step n={1} title="Choose the file">
          <FilePicker
            label="CSV file"
            description="Columns first_name, last_name and email (headers like “First name” or “E-mail” are recognised)."
            accept=".csv,text/csv"
            onChange={choose}
            disabled={running !== null}
            maw={520}
          />
          {file?.legacy && (
            <EncodingNotice
              encoding={file.legacy}
              onChange={(encoding) => changeSettings(() => load(file.bytes, encoding))}
              disabled={running !== null}
            />
          )}
          {readError !== null && <ErrorAlert error={readError} title="Could not read the file" />}
        </Step>

        {csv && (
          <Step n={2} title="Check the columns">
            <ColumnMapping
              columns={columns}
              mapping={mapping}
              onMappingChange={(m) => changeSettings(() => setMapping(m))}
              hasHeader={hasHeader}
              onHasHeaderChange={(h) => changeSettings(() => setHasHeader(h))}
              preview={rows.slice(0, 5)}
            />
          </Step>
        )}

        {csv && (
          <Step n={3} title="Check every row">
            <Stack>
              <Text>{plural(rows.length, 'row')} to check. Nothing is saved yet.</Text>
              <Group>
                <Button
                  onClick={() => run('check')}
                  disabled={!mapped || rows.length === 0 || running !== null || result !== null}
                  loading={running === 'check'}
                  leftSection={<IconCheck size={16} aria-hidden />}
                >
                  Check rows
                </Button>
              </Group>
              {running === 'check' && progressBar}
              {runError?.phase === 'check' && (
                <ErrorAlert
                  error={runError.error}
                  title="The check stopped"
                  fieldLabels={FORM_FIELDS.employeeImport.names}
                />
              )}
              {check?.cancelled && (
                <Alert color="yellow">The check was cancelled; the counts cover part of the file.</Alert>
              )}
              {check && !result && <ImportReport outcome={check} dryRun />}
            </Stack>
          </Step>
        )}

        {check && !check.cancelled && !check.error && (
          <Step n={4} title="Import">
            <Stack>
              {!result && (
                <>
                  <Text>
                    {check.fresh === 0
                      ? 'No new employees to import.'
                      : `${plural(check.fresh, 'new employee')} will be created.`}
                  </Text>
                  <Group>
                    <Button
                      onClick={() => run('import')}
                      disabled={check.fresh === 0 || running !== null}
                      loading={running === 'import'}
                      leftSection={<IconUpload size={16} aria-hidden />}
                    >
                      Import employees
                    </Button>
                  </Group>
                </>
              )}
              {running === 'import' && progressBar}
              {runError?.phase === 'import' && (
                <ErrorAlert
                  error={runError.error}
                  title="The import stopped"
                  fieldLabels={FORM_FIELDS.employeeImport.names}
                />
              )}
              {result && (
                <>
                  <Alert
                    color={result.cancelled || result.error ? 'yellow' : 'teal'}
                    role="status"
                    title={
                      result.error
                        ? 'Import stopped'
                        : result.cancelled
                          ? 'Import cancelled'
                          : 'Import finished'
                    }
                  >
                    {plural(result.fresh, 'employee')} created.
                  </Alert>
                  <ImportReport outcome={result} dryRun={false} />
                  <Group>
                    <Button component={Link} to={accountPath(account.id, 'employees')}>
                      Go to employees
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          </Step>
        )}
      </Stack>
    </>
  );
}
