import type { Message } from '../../api/types';

/** "Invitation to Ann Lee": what a message is called before its subject is written. */
export function messageTitle(m: Message): string {
  if (m.subject) return m.subject;
  const kind =
    {
      invitation: 'Invitation',
      reminder: 'Reminder',
      link: 'New link',
      simulation: 'Phishing simulation',
      report_feedback: 'Report feedback',
      report_thanks: 'Thanks for a report',
      simulation_test: 'Test simulation',
    }[m.kind] ?? 'Message';
  return m.employee ? `${kind} to ${m.employee.first_name} ${m.employee.last_name}` : kind;
}
