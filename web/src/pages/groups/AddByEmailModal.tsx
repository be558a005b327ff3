import { Alert, Button, List, Modal, Group as Row, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { useLimits } from '../../api/limits';
import type { Group } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilePicker } from '../../components/FilePicker';
import { formatNumber, plural } from '../../components/format';
import { useOnOpen } from '../../components/use-on-open';
import { extractEmails } from './emails';
import { membershipChanged } from './membership';

interface Outcome {
  added: number;
  alreadyMembers: number;
  notFound: string[];
}

interface AddByEmailModalProps {
  accountId: number;
  group: Group;
  opened: boolean;
  onClose: () => void;
}

/** Bulk add: a CSV file (or pasted text) of addresses → added / already members / not found. */
export function AddByEmailModal({ accountId, group, opened, onClose }: AddByEmailModalProps) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const emails = useMemo(() => extractEmails(text), [text]);
  // The most addresses one request takes.
  const chunk = useLimits().by_email_addresses;

  useOnOpen(opened, () => {
    setText('');
    setError(null);
    setOutcome(null);
  });

  const choose = async (chosen: File | null) => {
    if (chosen) setText(await chosen.text());
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    const total: Outcome = { added: 0, alreadyMembers: 0, notFound: [] };
    try {
      for (let start = 0; start < emails.length; start += chunk) {
        const answer = await call(
          api.POST('/accounts/{accountId}/groups/{groupId}/members/by-email', {
            params: { path: { accountId, groupId: group.id } },
            body: { emails: emails.slice(start, start + chunk) },
          }),
        );
        total.added += answer.added;
        total.alreadyMembers += answer.already_members;
        total.notFound.push(...answer.not_found);
        membershipChanged(queryClient, accountId, answer.group);
      }
      setOutcome(total);
    } catch (err) {
      setError(err);
      if (total.added + total.alreadyMembers + total.notFound.length > 0) setOutcome(total);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Add members to ${group.name} by email`} size="lg">
      {outcome ? (
        <Stack>
          <Alert color="teal" title="Done" role="status">
            <List spacing={2}>
              <List.Item>Added: {formatNumber(outcome.added)}</List.Item>
              <List.Item>Already members: {formatNumber(outcome.alreadyMembers)}</List.Item>
              <List.Item>Not found: {formatNumber(outcome.notFound.length)}</List.Item>
            </List>
          </Alert>
          <ErrorAlert
            error={error}
            title="Stopped before the end"
            fieldLabels={FORM_FIELDS.groupMembersByEmail.names}
          />
          {outcome.notFound.length > 0 && (
            <Stack gap="xs">
              <Text size="sm">No employee of this account has these addresses:</Text>
              <ScrollArea.Autosize mah={200} type="auto">
                <List size="sm" aria-label="Addresses not found">
                  {outcome.notFound.map((email) => (
                    <List.Item key={email}>{email}</List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
              <Row>
                <CopyButton value={outcome.notFound.join('\n')} size="xs" />
              </Row>
            </Stack>
          )}
          <Row justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </Row>
        </Stack>
      ) : (
        <Stack>
          <FilePicker
            label="CSV file"
            description="Every cell that holds an email address is used, whatever the column."
            accept=".csv,.txt,text/csv,text/plain"
            onChange={choose}
          />
          <Textarea
            label="Email addresses"
            description="Or paste addresses here, one per line or separated by commas."
            autosize
            minRows={3}
            maxRows={10}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
            }}
          />
          <Text size="sm" aria-live="polite">
            {emails.length === 0
              ? 'No addresses yet.'
              : `${plural(emails.length, 'address', 'addresses')} found.`}
          </Text>
          <ErrorAlert error={error} fieldLabels={FORM_FIELDS.groupMembersByEmail.names} />
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={submit} disabled={emails.length === 0} loading={busy}>
              Add by email
            </Button>
          </Row>
        </Stack>
      )}
    </Modal>
  );
}
