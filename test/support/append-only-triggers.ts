/** The triggers migrations add by hand (Prisma has no notation for them): what keeps the log, ledger and gaps append-only. */
export const APPEND_ONLY_TRIGGERS = [
  'action_log_no_delete',
  'action_log_no_update',
  'episodes_ledger_entry_no_update',
  'ledger_entries_no_delete',
  'ledger_entries_no_update',
  'ledger_gaps_no_delete',
  'ledger_gaps_no_update',
];

/** Tables a migration makes WITHOUT ROWID by hand (Prisma has no notation for it): see the schema's comment on each. */
export const WITHOUT_ROWID_TABLES = ['action_log'];
