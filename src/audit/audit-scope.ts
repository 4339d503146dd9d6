/** Whose episodes an audit query may see: one tenant's, or (admin key only) everyone's. */
export type AuditScope = { kind: 'tenant'; tenantId: string } | { kind: 'all' };

export interface EpisodeFilters {
  taskId?: string;
  status?: string;
  agent?: string;
  runLabel?: string;
  /** Drawn instances ("generated") or the task file's own ("canonical"). */
  variant?: 'generated' | 'canonical';
  /** Drawn instances of this split of seeds. */
  split?: 'test' | 'train';
  feedback?: string;
  runId?: string;
  tag?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  minScoreMilli?: number;
  maxScoreMilli?: number;
  /** Only repeated test plays (true), or only the others (false): see AuditRepository, REPEATED_TEST_PLAY. */
  repeatedTestPlay?: boolean;
}

/** Position in the newest-first order: the last item of the previous page. */
export interface EpisodeCursor {
  createdAt: Date;
  /** Its serial (episodes.serial): unique across tenants, and in creation order. */
  serial: number;
}
