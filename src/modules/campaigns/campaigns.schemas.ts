import { Type } from '@sinclair/typebox';
import { listErrors } from '../../http/error-responses.js';
import { Id, PageQuery, Paginated, Timestamp } from '../../http/schemas.js';

export const TrainingCampaign = Type.Object(
  {
    id: Id,
    name: Type.String({ examples: ['Phishing basics 2026'] }),
    status: Type.String({ description: 'Lifecycle state; a new campaign is `draft`.', examples: ['draft'] }),
    group_ids: Type.Array(Id, { description: 'Target groups, ascending.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    title: 'TrainingCampaign',
    examples: [
      {
        id: 4,
        name: 'Phishing basics 2026',
        status: 'draft',
        group_ids: [3],
        created_at: '2026-11-22T09:14:03.512Z',
        updated_at: '2026-11-22T09:14:03.512Z',
      },
    ],
  },
);

export const ListCampaignsQuery = Type.Object(PageQuery);

export const listCampaignsResponses = {
  200: Paginated(TrainingCampaign, 'TrainingCampaignPage'),
  ...listErrors('campaigns'),
};
