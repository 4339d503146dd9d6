import type { ComponentName, GradeBreakdown } from '../engine/grader';

/*
 * Component scores are also stored on the episode row (milli-points, one column each), so statistics are plain
 * SQL aggregates over a covering index rather than a parse of every snapshot.
 */

/** The component columns as the repositories name them. */
export type ComponentColumns = Record<
  'openedMilli' | 'policyMilli' | 'priorityMilli' | 'routingMilli' | 'replyMilli' | 'resolutionMilli',
  number
>;

const FIELD_OF: Record<ComponentName, keyof ComponentColumns> = {
  opened_target: 'openedMilli',
  policy_consulted: 'policyMilli',
  priority: 'priorityMilli',
  routing: 'routingMilli',
  reply_coverage: 'replyMilli',
  resolution: 'resolutionMilli',
};

/** The SQL column of each component. */
export const COMPONENT_COLUMN_NAMES: Record<ComponentName, string> = {
  opened_target: 'opened_milli',
  policy_consulted: 'policy_milli',
  priority: 'priority_milli',
  routing: 'routing_milli',
  reply_coverage: 'reply_milli',
  resolution: 'resolution_milli',
};

export function componentColumns(breakdown: GradeBreakdown): ComponentColumns {
  const columns = {} as ComponentColumns;
  for (const component of breakdown.components) columns[FIELD_OF[component.name]] = component.earned_milli;
  return columns;
}
