import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { MaxChars, MinChars, QueryNumber } from '../../common/field-rules';
import { KEY_SCOPES, type KeyScope } from '../../access/principal';

export class CreateTenantDto {
  /** URL-safe identifier, e.g. "robotics-lab". */
  @ApiProperty({ pattern: '^[a-z0-9][a-z0-9-]{1,62}$', example: 'robotics-lab' })
  @Matches(/^[a-z0-9][a-z0-9-]{1,62}$/, { message: 'slug must be 2-63 lowercase letters, digits or "-"' })
  @IsString()
  slug!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Robotics Lab' })
  @MaxChars(200)
  @MinChars(1)
  @IsString()
  name!: string;
}

export class TenantDto {
  id!: string;
  slug!: string;
  name!: string;
  created_at!: string;
  /** Keys not revoked. */
  active_keys!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Finished episodes older than this many days are purged by the retention sweep (docs/operating.md); null: kept for ever.',
  })
  retention_days!: number | null;
}

export class CreateApiKeyDto {
  /** What the key is for, e.g. "ppo-runner". */
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'ppo-runner' })
  @MaxChars(200)
  @MinChars(1)
  @IsString()
  name!: string;

  @ApiProperty({
    required: false,
    enum: KEY_SCOPES,
    enumName: 'KeyScope',
    description:
      'agent (default): runs episodes and reads the episodes it started. reader: reads every episode of the tenant, ' +
      'audits, exports and statistics, and runs nothing.',
  })
  @IsIn(KEY_SCOPES)
  @IsOptional()
  scope?: KeyScope;
}

export class ApiKeyDto {
  id!: string;
  /** Slug of the owning tenant. */
  tenant!: string;
  name!: string;
  @ApiProperty({ enum: KEY_SCOPES, enumName: 'KeyScope' })
  scope!: KeyScope;
  /** The first characters of the key, to tell keys apart. */
  prefix!: string;
  created_at!: string;
  @ApiProperty({ type: String, nullable: true })
  last_used_at!: string | null;
  @ApiProperty({ type: String, nullable: true })
  revoked_at!: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  /** The key itself. It is shown this once and cannot be recovered: store it now. */
  key!: string;
}

export class TenantListDto {
  tenants!: TenantDto[];
}

export class ApiKeyListDto {
  keys!: ApiKeyDto[];
}

/** Event ids are 32-bit integers in the database. */
const MAX_EVENT_ID = 2_147_483_647;

export class AdminEventsQueryDto {
  @ApiProperty({ required: false, minimum: 1, maximum: 1000, default: 100, type: 'integer' })
  @Max(1000)
  @Min(1)
  @IsInt()
  @QueryNumber()
  @IsOptional()
  limit?: number;

  @ApiProperty({
    required: false,
    minimum: 1,
    maximum: MAX_EVENT_ID,
    type: 'integer',
    description: 'Only events older than this event id (the last id of the previous page).',
  })
  @Max(MAX_EVENT_ID)
  @Min(1)
  @IsInt()
  @QueryNumber()
  @IsOptional()
  before_id?: number;
}

export class AdminEventDto {
  id!: number;
  at!: string;
  @ApiProperty({
    enum: ['tenant.created', 'tenant.retention_set', 'tenant.deletion_started', 'tenant.deletion_resumed', 'tenant.deleted', 'key.issued', 'key.revoked', 'chain.legacy_sealed', 'ledger.enrolled', 'episodes.purged'],
  })
  action!: string;
  /** Slug of the tenant concerned. */
  tenant!: string;
  @ApiProperty({ type: String, nullable: true })
  key_id!: string | null;
  /**
   * What the action set (name, slug, scope, key prefix) or removed (a purge's and a deletion's counts, id range and
   * chain heads); never a secret. Strings, except the counts (numbers) and objects of a purge or deletion.
   */
  @ApiProperty({ type: 'object', additionalProperties: true })
  detail!: Record<string, unknown>;
}

export class AdminEventListDto {
  events!: AdminEventDto[];
}
