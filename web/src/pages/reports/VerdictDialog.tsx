import { Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { plural } from '../../components/format';
import { invalidateAccount } from '../../components/invalidate';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';
import {
  type ReportDetail,
  VERDICT_HELP,
  VERDICT_LABELS,
  VERDICT_NOTE_MAX,
  VERDICTS,
  type Verdict,
} from './reports-api';

interface VerdictDialogProps {
  accountId: number;
  report: ReportDetail;
  opened: boolean;
  onClose: () => void;
}

/**
 * "Give verdict": malicious, spam or safe, with a note. Saving mails each reporter who was not yet
 * told this verdict the account's feedback mail for it (Reporting settings).
 */
export function VerdictDialog({ accountId, report, opened, onClose }: VerdictDialogProps) {
  const queryClient = useQueryClient();
  const [verdict, setVerdict] = useState<Verdict | null>(report.verdict);
  const [note, setNote] = useState(report.verdict_note ?? '');
  const save = useMutation({
    mutationFn: (chosen: Verdict) =>
      call(
        api.POST('/accounts/{accountId}/reports/{reportId}/verdict', {
          params: { path: { accountId, reportId: report.id } },
          body: { verdict: chosen, note },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['reports', accountId, 'one', report.id], saved);
      invalidateAccount(queryClient, accountId, 'reports', 'overview');
      notifications.show({
        color: 'teal',
        message: `Judged ${VERDICT_LABELS[saved.verdict ?? 'safe'].toLowerCase()}: the reporters are told by mail`,
      });
      onClose();
    },
  });
  useOnOpen(opened, () => {
    save.reset();
    setVerdict(report.verdict);
    setNote(report.verdict_note ?? '');
  });
  const toTell = verdict ? report.reporters.filter((r) => r.feedback_verdict !== verdict).length : 0;
  const noteError = save.error instanceof ApiError ? save.error.fieldError('note') : undefined;
  const [missing, setMissing] = useState(false);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={report.verdict ? 'Change the verdict' : 'Give verdict'}
      size="lg"
    >
      <SaveForm
        save={{ ...save, mutate: () => (verdict ? save.mutate(verdict) : setMissing(true)) }}
        fields={['verdict', 'note']}
        fieldLabels={FORM_FIELDS.verdict.names}
        errorTitle="Could not save the verdict"
        submitLabel="Save verdict"
        onCancel={onClose}
      >
        <Radio.Group
          label="Verdict"
          value={verdict ?? ''}
          onChange={(value) => {
            setMissing(false);
            setVerdict(value as Verdict);
          }}
          error={missing ? 'Choose a verdict.' : undefined}
          withAsterisk
        >
          <Stack gap="sm" mt="xs">
            {VERDICTS.map((v) => (
              <Radio key={v} value={v} label={VERDICT_LABELS[v]} description={VERDICT_HELP[v]} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label="Note"
          description="Why, in a sentence: it is kept with the verdict and goes into the feedback mail."
          autosize
          minRows={2}
          maxRows={6}
          maxLength={VERDICT_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={noteError}
        />
        <Text size="sm" c="dimmed">
          {verdict === null
            ? 'Each reporter gets the feedback mail for the verdict you choose.'
            : toTell === 0
              ? `Everyone who reported it was already told “${VERDICT_LABELS[verdict].toLowerCase()}”: nobody gets another mail.`
              : `Each reporter gets the feedback mail for “${VERDICT_LABELS[verdict].toLowerCase()}”: ${plural(toTell, 'person', 'people')} will be mailed.`}
        </Text>
      </SaveForm>
    </Modal>
  );
}
