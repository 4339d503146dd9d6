/** What POST /admin/ledger/enroll did. */
export class EnrollmentDto {
  /** Episodes of release 0.1's unkeyed chain (sha256-v1) sealed now under the chain key. */
  sealed!: number;
  /** Episodes stored before the tenant ledger that were entered into it now; 0 when none was left. */
  enrolled!: number;
  /** Id of the chain key the seals and ledger entries were made with (never the key itself). */
  chain_key_id!: string;
}
