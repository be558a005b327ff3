/** A simulation (one recipient of a phishing campaign) as its events describe it. */
export interface SimulationSubject {
  account_id: number;
  id: number;
  campaign_id: number;
  employee_id: number;
  template_key: string;
  status: string;
}

/** A step a person took for the first time, with when. */
export interface FirstStep {
  type: 'phishing.simulation_clicked' | 'phishing.simulation_submitted' | 'phishing.simulation_reported';
  at: number;
}

/** The events phishing emits (core/events.ts); subscribers run inside its transactions. */
declare module '../../../core/events.js' {
  interface DomainEvents {
    /** A phishing campaign started (its simulations are being sent). */
    'phishing.campaign_launched': { accountId: number; campaignId: number };
    /** A phishing campaign completed (its window and grace period ended, or it was stopped). */
    'phishing.campaign_completed': { accountId: number; campaignId: number };
    /**
     * A person took steps of a simulation for the first time (scanners excluded): a submission or
     * a report at once, a click once it settled.
     */
    'phishing.simulation_stepped': {
      accountId: number;
      simulation: SimulationSubject;
      steps: readonly FirstStep[];
    };
  }
}
