import type { PullListDto } from '@domain/schemas/pull-list.schema';
import { formatCount } from '../../lib/format';

type Count = (count: number, one: string) => string;

/**
 * What is left to handle on a pull list, in words: each vault taken off a stack and each put-back is one handling (the
 * server's count), so the number is what the floor will really do. One or many: '1 handling left', '2 vaults'.
 */
export function handlingsText(
  list: Pick<PullListDto, 'plan' | 'handlings' | 'in_the_way'>,
  count: Count = formatCount,
): string {
  if (list.plan.length === 0)
    return list.handlings === 0
      ? 'Nothing left to take out.'
      : `Nothing left to take out; ${count(list.handlings, 'handling')} left to put back.`;
  const inTheWay =
    list.in_the_way === 0
      ? 'no vault in the way'
      : `${count(list.in_the_way, 'vault')} only in the way, each off and back`;
  return `${count(list.handlings, 'handling')} left (the least possible), ${inTheWay}.`;
}
