import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, call } from '../../../api/client';
import { FORM_FIELDS } from '../../../api/form-fields';
import type { components } from '../../../api/generated/admin-api';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatDateTime } from '../../../components/format';
import { EVENT_LABELS } from './results-format';

type PhishingEvent = components['schemas']['PhishingEvent'];
type Classification = PhishingEvent['classification'];

export const REASON_MAX = 500;

interface ReclassifyDialogProps {
  accountId: number;
  campaignId: number;
  /** The event being reclassified; null: the dialog is closed. */
  event: PhishingEvent | null;
  onClose: () => void;
}

/** Says one event was a person's or a machine's after all, with why; the timeline and the figures follow. */
export function ReclassifyDialog({ accountId, campaignId, event, onClose }: ReclassifyDialogProps) {
  const queryClient = useQueryClient();
  const [classification, setClassification] = useState<Classification>('human');
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (!event) return;
    setClassification(event.classification === 'human' ? 'automated' : 'human');
    setReason('');
  }, [event]);
  const save = useMutation({
    mutationFn: (e: PhishingEvent) =>
      call(
        api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/events/{eventId}/reclassify', {
          params: { path: { accountId, campaignId, eventId: e.id } },
          body: { classification, reason: reason.trim() },
        }),
      ),
    onSuccess: async () => {
      await Promise.all(
        [
          ['phishing-events', accountId, campaignId],
          ['phishing-recipients', accountId, campaignId],
          ['phishing-results', accountId, campaignId],
          ['phishing-campaign', accountId, campaignId],
          ['phishing-campaigns', accountId],
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      close();
    },
  });
  const close = () => {
    save.reset();
    onClose();
  };
  const trimmed = reason.trim();
  return (
    <Modal opened={event !== null} onClose={close} title="Reclassify the event" centered>
      {event && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (trimmed) save.mutate(event);
          }}
        >
          <Stack>
            <Text size="sm">
              {EVENT_LABELS[event.kind] ?? event.kind}, {formatDateTime(event.occurred_at)}: now counted as{' '}
              {event.classification === 'human' ? 'a person’s' : 'automated'}. The person’s status and the
              figures follow the new classification.
            </Text>
            <Radio.Group
              label="Classification"
              value={classification}
              onChange={(v) => setClassification(v as Classification)}
              required
            >
              <Group mt={4}>
                <Radio value="human" label="A person" />
                <Radio value="automated" label="Automated (a scanner)" />
              </Group>
            </Radio.Group>
            <Textarea
              label="Reason"
              description={`Kept with the event. ${reason.length}/${REASON_MAX} characters.`}
              required
              autosize
              minRows={3}
              maxLength={REASON_MAX}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-autofocus
            />
            <ErrorAlert
              error={save.error}
              title="Could not reclassify the event"
              fieldLabels={FORM_FIELDS.reclassify.names}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!trimmed}>
                Reclassify
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
