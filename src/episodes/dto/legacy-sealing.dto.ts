/** What POST /admin/chain/seal-legacy did. */
export class LegacySealingDto {
  /** How many episodes chained before the keyed chain (sha256-v1) were sealed now; 0 when none was left unsealed. */
  sealed!: number;
  /** Id of the chain key the seals were made with (never the key itself). */
  chain_key_id!: string;
}
