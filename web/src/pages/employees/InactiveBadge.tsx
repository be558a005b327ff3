import { Badge } from '@mantine/core';

/**
 * "Inactive": the employee was deactivated by the identity provider (SCIM `active: false`). They
 * stay listed and readable, but are no longer enrolled, invited, reminded or sent simulations.
 */
export function InactiveBadge({ active }: { active: boolean }) {
  if (active) return null;
  return (
    <Badge
      color="gray"
      variant="light"
      ml="xs"
      title="Deactivated through SCIM: no longer trained or phished"
    >
      Inactive
    </Badge>
  );
}
