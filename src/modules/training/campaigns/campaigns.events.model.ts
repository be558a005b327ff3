/**
 * What happened to a training campaign and its enrollments, as its owner tells the others
 * (core/events.ts, `training.campaign_changed`): webhooks describe it.
 */
export interface TrainingEvents {
  /** Something that happened to the campaign itself. */
  campaign?: 'training.campaign_launched' | 'training.campaign_completed';
  /** Something that happened to these enrollments of the campaign (`all`: every enrollment, a launch). */
  enrollments?: {
    type: 'training.enrollment_created' | 'training.enrollment_completed' | 'training.enrollment_overdue';
    ids: readonly number[] | 'all';
  };
}

export interface TrainingCampaignChange {
  accountId: number;
  campaignId: number;
  which: TrainingEvents;
  /** When it happened (the events' time). */
  now: number;
}

declare module '../../../core/events.js' {
  interface DomainEvents {
    /**
     * A training campaign was launched or completed, or enrollments of it were created (launch,
     * newcomers, remedial training), completed or became overdue.
     */
    'training.campaign_changed': TrainingCampaignChange;
  }
}
