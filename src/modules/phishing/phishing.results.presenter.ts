import { isoOrNull } from '../../time.js';

/** A recipient with what its result shows (the recipient row with the employee's address). */
export interface RecipientResultRow {
  employee_id: number;
  /** Null or empty once the employee is deleted. */
  email: string | null;
  template_key: string;
  status: string;
  sent_at: number | null;
  opened_at: number | null;
  clicked_at: number | null;
  submitted_at: number | null;
  reported_at: number | null;
  training_assigned_at: number | null;
}

/** One recipient's result as the Customer API shows it (reports and `/results/`). */
export function presentRecipientResult(row: RecipientResultRow) {
  return {
    employee_id: Number(row.employee_id),
    email: row.email ?? '',
    template: row.template_key,
    status: row.status,
    sent_at: isoOrNull(row.sent_at),
    opened_at: isoOrNull(row.opened_at),
    clicked_at: isoOrNull(row.clicked_at),
    submitted_at: isoOrNull(row.submitted_at),
    reported_at: isoOrNull(row.reported_at),
    training_assigned: row.training_assigned_at !== null,
  };
}
