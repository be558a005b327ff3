// Words for a phishing template's category, difficulty and red-flag parts.
import type { RedFlagPart, TemplateCategory } from './template-types';

export const CATEGORY_LABELS: Record<TemplateCategory, string> = {
  credential_harvest: 'Credential harvest',
  invoice: 'Invoice',
  parcel_delivery: 'Parcel delivery',
  hr_payroll: 'HR and payroll',
  it_password_reset: 'IT password reset',
  mfa_prompt: 'MFA prompt',
  file_share: 'File share',
  executive_request: 'Executive request',
  calendar_invite: 'Calendar invite',
  voicemail: 'Voicemail',
  benefits_enrollment: 'Benefits enrolment',
  other: 'Other',
};

export const categoryLabel = (category: string) =>
  CATEGORY_LABELS[category as TemplateCategory] ?? category.replaceAll('_', ' ');

/** 1 (obvious) … 5 (polished): what a level means to whoever picks a template. */
export const DIFFICULTY_LABELS: Record<number, string> = {
  1: 'Obvious',
  2: 'Easy',
  3: 'Moderate',
  4: 'Hard',
  5: 'Polished',
};

export const difficultyLabel = (d: number) => `${d} · ${DIFFICULTY_LABELS[d] ?? ''}`.trim();

export const DIFFICULTY_COLORS: Record<number, string> = {
  1: 'teal',
  2: 'lime',
  3: 'yellow',
  4: 'orange',
  5: 'red',
};

export const PART_LABELS: Record<RedFlagPart, string> = {
  sender: 'Sender',
  subject: 'Subject',
  body: 'Body',
  link: 'Link',
};
