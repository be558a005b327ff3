import type { Config } from '../../core/config.js';
import type { Db } from '../../core/db/database.js';
import type { AppError } from '../../core/errors.js';
import type { CampaignLifecycle } from './campaigns.lifecycle.model.js';

/**
 * The kinds of campaign the lifecycle serves. Each kind declares what differs in a descriptor
 * and registers it at start-up (src/subscriptions.ts); the scheduling runs every registered kind,
 * in the order they were registered.
 */

/** Where the scheduling writes what went wrong (the workers' log). */
export interface SchedulingLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The instance a scheduling pass runs in (the server, or `vigil worker`): its configuration, for
 * what a kind checks again when the scheduler launches (phishing: the sender domain it may use).
 */
export interface SchedulingInstance {
  config: Config;
  /** Where people reach this server (PUBLIC_URL, else the address it listens on). */
  baseUrl: string;
}

/** A campaign of some account, as the operator-wide scheduling finds it. */
export interface CampaignOfAccount {
  id: number;
  account_id: number;
}

/** What a kind of campaign declares so that the lifecycle serves it. */
export interface CampaignKind {
  /** Its name (`training`, `phishing`); registering a name again replaces the descriptor. */
  name: string;
  /** Its statuses, in its own names, with the shared rules. */
  lifecycle: CampaignLifecycle<string>;
  /** Scheduled campaigns whose start has come: found, then launched one by one. */
  due: {
    /** Operator-wide: at most `limit` scheduled campaigns whose start has come, earliest first. */
    find(db: Db, now: number, limit: number): Promise<CampaignOfAccount[]>;
    /**
     * Launches one, as the scheduler (trigger `scheduled`), in its account. `instance` is absent
     * only in tests that run a pass by hand.
     */
    launch(db: Db, campaign: CampaignOfAccount, now: number, instance?: SchedulingInstance): Promise<unknown>;
    /**
     * A launch refused for another reason than a lost race: true when the kind dealt with it
     * (the pass goes on), false to let the error end the pass.
     */
    refused?(
      db: Db,
      campaign: CampaignOfAccount,
      err: AppError,
      now: number,
      log?: SchedulingLog,
    ): Promise<boolean>;
    /** The log line when the launches fail. */
    failure: string;
  };
  /** Other mail the kind queues when due, after its launches (training: reminder rounds). */
  dueMail?: {
    queue(db: Db, now: number): Promise<number>;
    failure: string;
  };
  /** Running campaigns whose end has come: found, then completed one by one. */
  ended?: {
    find(db: Db, now: number, limit: number): Promise<CampaignOfAccount[]>;
    complete(db: Db, campaign: CampaignOfAccount, now: number): Promise<unknown>;
    /** Runs after the completions, in the same step (phishing: outcomes of simulations to catch up). */
    afterwards?(db: Db, now: number): Promise<unknown>;
    /** The log line when the completions fail. */
    failure: string;
  };
}

const kinds = new Map<string, CampaignKind>();

/** Registers a kind of campaign (src/subscriptions.ts does, for every entry point). */
export function registerCampaignKind(kind: CampaignKind): void {
  kinds.set(kind.name, kind);
}

/** The registered kinds, in the order they were registered. */
export function campaignKinds(): CampaignKind[] {
  return [...kinds.values()];
}
