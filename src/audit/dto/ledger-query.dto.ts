import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { TENANT_SLUG } from './episode-filters.dto';

export class LedgerQueryDto {
  @ApiProperty({
    required: false,
    pattern: TENANT_SLUG.source,
    description: 'Admin key only (another key gets 403): one tenant (its slug; 404 if there is none); without it, the admin key gets every tenant.',
  })
  @Matches(TENANT_SLUG, { message: 'tenant must be a tenant slug' })
  @IsString()
  @IsOptional()
  tenant?: string;
}
