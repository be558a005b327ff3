import type { Db } from '../../db/database.js';
import { FieldErrorCollector, validationFailed } from '../../errors.js';
import { checkName } from '../../fields.js';
import { parseId } from '../../ids.js';
import { fetchPage, type Page, type PageRequest } from '../../pagination.js';
import { getAccount } from '../accounts/accounts.service.js';
import {
  type CampaignRow,
  countCampaigns,
  existingGroupIds,
  groupIdsOfCampaigns,
  insertCampaign,
  listCampaigns,
} from './campaigns.repository.js';

export interface Campaign extends CampaignRow {
  group_ids: number[];
}

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
