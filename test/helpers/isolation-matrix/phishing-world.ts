import { insertPhishingCampaign, type PhishingFixture } from '../phishing-fixtures.js';
import type { Side, World } from './world.js';

/** One phishing campaign per side, written by the fixture helper the first time a row asks for it. */
const made = new WeakMap<Side, Promise<PhishingFixture>>();

export function phishingOf(w: World, side: Side): Promise<PhishingFixture> {
  let fixture = made.get(side);
  if (!fixture) {
    fixture = insertPhishingCampaign(w.app.db, side.accountId);
    made.set(side, fixture);
  }
  return fixture;
}

/** The fixture once made (the list rows read B's ids synchronously, after its object was made). */
export const known = new WeakMap<Side, PhishingFixture>();

export async function phishingCampaignOf(w: World, side: Side): Promise<PhishingFixture> {
  const fixture = await phishingOf(w, side);
  known.set(side, fixture);
  return fixture;
}
