import { Badge, Group } from '@mantine/core';
import { categoryLabel, DIFFICULTY_COLORS, difficultyLabel } from './template-format';

/** Difficulty, category and where a template comes from, as badges. */
export function TemplateBadges({
  difficulty,
  category,
  source,
}: {
  difficulty: number;
  category: string;
  source: 'builtin' | 'custom';
}) {
  return (
    <Group gap={6} wrap="wrap">
      <Badge variant="light" color={DIFFICULTY_COLORS[difficulty] ?? 'gray'}>
        {difficultyLabel(difficulty)}
      </Badge>
      <Badge variant="outline" color="gray">
        {categoryLabel(category)}
      </Badge>
      <Badge variant="light" color={source === 'builtin' ? 'gray' : 'indigo'}>
        {source === 'builtin' ? 'Built-in' : 'Custom'}
      </Badge>
    </Group>
  );
}
