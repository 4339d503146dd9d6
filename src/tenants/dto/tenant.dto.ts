import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export class CreateTenantDto {
  /** URL-safe identifier, e.g. "robotics-lab". */
  @ApiProperty({ pattern: '^[a-z0-9][a-z0-9-]{1,62}$', example: 'robotics-lab' })
  @Matches(/^[a-z0-9][a-z0-9-]{1,62}$/, { message: 'slug must be 2-63 lowercase letters, digits or "-"' })
  @IsString()
  slug!: string;

  @ApiProperty({ maxLength: 200, example: 'Robotics Lab' })
  @MaxLength(200)
  @IsNotEmpty()
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
}

export class CreateApiKeyDto {
  /** What the key is for, e.g. "ppo-runner". */
  @ApiProperty({ maxLength: 200, example: 'ppo-runner' })
  @MaxLength(200)
  @IsNotEmpty()
  @IsString()
  name!: string;
}

export class ApiKeyDto {
  id!: string;
  /** Slug of the owning tenant. */
  tenant!: string;
  name!: string;
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
