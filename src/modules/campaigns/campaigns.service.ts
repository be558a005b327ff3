import { type ListPage, type ListWindow, readList } from '../../admin/list.js';
import type { Db } from '../../db/database.js';
import { FieldErrorCollector, notFound, validationFailed } from '../../errors.js';
import { checkName } from '../../fields.js';
import { parseId } from '../../ids.js';
import { fetchPage, type Page, type PageRequest } from '../../pagination.js';
import { getAccount } from '../accounts/accounts.service.js';
import {
  type CampaignRow,
  countCampaigns,
  existingGroupIds,
  findCampaign,
  type GroupRef,
  groupIdsOfCampaigns,
  groupsOfCampaigns,
  insertCampaign,
  listCampaigns,
} from './campaigns.repository.js';

export interface Campaign extends CampaignRow {
  group_ids: number[];
}

/** A campaign as the web interface shows it: with its target groups' names. */
export interface CampaignWithGroups extends CampaignRow {
  groups: GroupRef[];
}

const campaignNotFound = () => notFound('Campaign not found');

/** Creates a training campaign in `draft`, targeting groups of the same account. */
export async function createCampaign(
  db: Db,
  accountId: number,
  input: { name: unknown; groupIds: Array<number | string> },
): Promise<Campaign> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', input.name);
  const groupIds = [...new Set(input.groupIds.map(parseId))];
  if (groupIds.includes(null)) errors.add('group_ids', 'each entry must be a positive integer');
  errors.throwIfAny();
  await getAccount(db, accountId);
  const ids = (groupIds as number[]).sort((a, b) => a - b);
  return db.transaction().execute(async (trx) => {
    const known = await existingGroupIds(trx, accountId, ids);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw validationFailed({ group_ids: [`unknown groups: ${unknown.join(', ')}`] });
    const row = await insertCampaign(trx, accountId, { name, status: 'draft', groupIds: ids }, Date.now());
    return { ...row, group_ids: ids };
  });
}

export async function findCampaigns(db: Db, accountId: number, page: PageRequest): Promise<Page<Campaign>> {
  const result = await fetchPage(
    page,
    () => countCampaigns(db, accountId),
    (limit, offset) => listCampaigns(db, accountId, limit, offset),
  );
  const groups = await groupIdsOfCampaigns(
    db,
    result.items.map((c) => c.id),
  );
  return { ...result, items: result.items.map((c) => ({ ...c, group_ids: groups.get(c.id) ?? [] })) };
}

/** A page of an account's training campaigns, newest first, with their target groups. */
export async function listCampaignsPage(
  db: Db,
  accountId: number,
  window: ListWindow,
): Promise<ListPage<CampaignWithGroups>> {
  const page = await readList(
    window,
    () => countCampaigns(db, accountId),
    (limit, offset) => listCampaigns(db, accountId, limit, offset, 'desc'),
  );
  const groups = await groupsOfCampaigns(
    db,
    page.items.map((c) => c.id),
  );
  return { ...page, items: page.items.map((c) => ({ ...c, groups: groups.get(c.id) ?? [] })) };
}

export async function getCampaign(
  db: Db,
  accountId: number,
  campaignId: string | number,
): Promise<CampaignWithGroups> {
  const id = parseId(campaignId);
  const campaign = id === null ? undefined : await findCampaign(db, accountId, id);
  if (!campaign) throw campaignNotFound();
  const groups = await groupsOfCampaigns(db, [campaign.id]);
  return { ...campaign, groups: groups.get(campaign.id) ?? [] };
}
