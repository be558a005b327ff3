import type { GroupRow } from './groups.repository.js';

/**
 * A group's entity tag. Weak, because the detail also shows member names, which other
 * operations may change; it moves with every change of membership, name or description.
 */
export function groupEtag(group: Pick<GroupRow, 'id' | 'version'>): string {
  return `W/"g${group.id}v${group.version}"`;
}

/** `If-Match` semantics with weak comparison: `*` or any listed tag equal to the current one. */
export function ifMatchAccepts(header: string, current: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(current);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}
