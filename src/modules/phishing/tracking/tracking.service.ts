import { LRUCache } from 'lru-cache';
import type { Db } from '../../../core/db/database.js';
import { brandingOf } from '../../access/index.js';
import { learnerLinkOffer } from '../../training/index.js';
import { simulationLink } from '../simulation/simulation.links.model.js';
import {
  personOfRecipient,
  type RecipientWithCampaign,
  templateSnapshotOf,
} from '../simulation/simulation.recipients.repository.js';
import { renderLandingPage, renderTeachableEmail } from '../templates/templates.landing.presenter.js';
import { builtInPhishingTemplates } from '../templates/templates.library.service.js';
import type { EmailTemplate, RecipientVars } from '../templates/templates.render.model.js';
import type { RedFlag } from '../templates/templates.rules.model.js';
import { teachablePage } from './tracking.teachable.presenter.js';

/**
 * What the tracking routes show one recipient: the landing page and the teachable page, from the
 * snapshot of the template they were sent (taken at launch) and the person's current values.
 */

export interface SimulationTemplate extends EmailTemplate {
  landing_html: string;
  red_flags: RedFlag[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

// A campaign's snapshots never change once written (launch): parsed once per process and database.
const snapshots = new WeakMap<Db, LRUCache<string, SimulationTemplate>>();
function snapshotCache(db: Db): LRUCache<string, SimulationTemplate> {
  let cache = snapshots.get(db);
  if (!cache) {
    cache = new LRUCache({ max: 500 });
    snapshots.set(db, cache);
  }
  return cache;
}

/** The template a recipient was sent: the campaign's snapshot, else (before launch wrote one) the built-in file. */
export async function templateOfRecipient(
  db: Db,
  recipient: RecipientWithCampaign,
): Promise<SimulationTemplate | null> {
  const cacheKey = `${recipient.account_id}:${recipient.campaign_id}:${recipient.template_key}`;
  const cached = snapshotCache(db).get(cacheKey);
  if (cached) return cached;
  const snapshot = await templateSnapshotOf(
    db,
    recipient.account_id,
    recipient.campaign_id,
    recipient.template_key,
  );
  if (snapshot !== null) {
    try {
      const t = JSON.parse(snapshot) as Record<string, unknown>;
      const parsed: SimulationTemplate = {
        subject: str(t.subject),
        sender_name: str(t.sender_name),
        sender_address: str(t.sender_address),
        html: str(t.html),
        text: str(t.text),
        landing_html: str(t.landing_html),
        red_flags: Array.isArray(t.red_flags) ? (t.red_flags as RedFlag[]) : [],
      };
      snapshotCache(db).set(cacheKey, parsed);
      return parsed;
    } catch {
      // fall through to the library
    }
  }
  if (recipient.template_key.startsWith('builtin:')) {
    const t = builtInPhishingTemplates().get(recipient.template_key.slice('builtin:'.length));
    if (t) return t;
  }
  return null;
}

async function varsOf(db: Db, recipient: RecipientWithCampaign): Promise<RecipientVars> {
  const person = await personOfRecipient(db, recipient.account_id, recipient.employee_id);
  return {
    first_name: person?.first_name ?? '',
    last_name: person?.last_name ?? '',
    email: person?.email ?? '',
    company: person?.company ?? '',
  };
}

/** The landing page for one person, its form posting to `submitUrl`; null when the template is gone. */
export async function landingPageOf(
  db: Db,
  recipient: RecipientWithCampaign,
  submitUrl: string,
): Promise<string | null> {
  const template = await templateOfRecipient(db, recipient);
  if (!template?.landing_html) return null;
  try {
    return renderLandingPage(template.landing_html, await varsOf(db, recipient), { submitUrl });
  } catch {
    return null;
  }
}

/**
 * The teachable page for one person; null when the template is gone (the generic page then). A
 * remedial course assigned offers the learner link the person already holds, never a new one
 * (`learnerLinkOffer`): the page is reached by the simulation's link, which a forwarded or
 * reported email hands to others.
 */
export async function teachablePageOf(
  db: Db,
  recipient: RecipientWithCampaign,
  options: {
    phishBase: string;
    trainingAssigned: boolean;
    /** Where learner links point (PUBLIC_URL). */
    learnerBase?: string;
  },
): Promise<string | null> {
  const template = await templateOfRecipient(db, recipient);
  if (!template) return null;
  const vars = await varsOf(db, recipient);
  const senderDomain = recipient.sender_domain ?? new URL(options.phishBase).hostname;
  try {
    const email = renderTeachableEmail(template, {
      ...vars,
      link: simulationLink(options.phishBase, recipient.token),
      sender_domain: senderDomain,
    });
    const assigned = options.trainingAssigned;
    const enrollmentId = recipient.enrollment_id;
    return teachablePage({
      email,
      brand: await brandingOf(db, recipient.account_id),
      training: {
        assigned,
        coming: !assigned && remedialComing(recipient),
        email: vars.email || null,
        offer:
          assigned && enrollmentId !== null && options.learnerBase !== undefined
            ? await learnerLinkOffer(db, recipient.account_id, enrollmentId, { baseUrl: options.learnerBase })
            : { state: 'none' },
      },
    });
  } catch {
    return null;
  }
}

/** A failure that will enrol the person once their hit settled (tracking.settle.commands.ts). */
function remedialComing(r: RecipientWithCampaign): boolean {
  const failed = r.remedial_on === 'submit' ? r.submitted_at : r.clicked_at;
  return (
    r.remedial_campaign_id !== null &&
    r.training_assigned_at === null &&
    r.employee_deleted_at === null &&
    failed !== null
  );
}
