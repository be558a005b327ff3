import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webhookCatalogue } from './webhooks.catalogue.model.js';

describe('the webhook event catalogue', () => {
  it('is in docs/webhooks.md, each type with its sample', () => {
    const doc = readFileSync(new URL('../../../../docs/webhooks.md', import.meta.url), 'utf8');
    for (const event of webhookCatalogue()) {
      expect(doc).toContain(`### \`${event.type}\``);
      expect(doc).toContain(JSON.stringify(event.sample, null, 2));
    }
  });

  it('names types as Standard Webhooks suggests (group.event, lowercase)', () => {
    for (const { type } of webhookCatalogue()) expect(type).toMatch(/^[a-z]+\.[a-z_]+$/);
  });
});
