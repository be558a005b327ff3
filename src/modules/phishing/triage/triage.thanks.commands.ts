import type { Db } from '../../../core/db/database.js';
import { queueThanksMail } from './triage.repository.js';

/**
 * The thank-you a person gets at once for reporting a simulation by mail (the add-in thanks in
 * its pane): a short message, written when queued, that names no campaign and no token.
 */
export async function thankForSimulationReport(
  db: Db,
  accountId: number,
  address: string,
  at: number,
): Promise<void> {
  await queueThanksMail(
    db,
    accountId,
    {
      to: address,
      subject: 'Well spotted: that was a phishing simulation',
      text: 'Well spotted! The message you reported was a phishing simulation from your security team, and your report counts.\n\nKeep reporting anything suspicious: it is how real attacks are found. You may delete the simulation.',
    },
    at,
  );
}
