import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { LegacySealingDto } from './dto/legacy-sealing.dto';
import { LegacyChainSeals } from './legacy-chain-seals';

@ApiTags('admin')
@Controller('admin/chain')
export class AdminChainController {
  constructor(private readonly seals: LegacyChainSeals) {}

  @Access.Admin()
  @Post('seal-legacy')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sealLegacyEpisodes',
    summary: 'Seal the episodes chained before the keyed chain (run once, right after upgrading from release 0.1)',
    description:
      'Seals every episode still on the unkeyed sha256-v1 chain under the current chain key (its metadata and its rows so far; ' +
      'its later rows are keyed), and records the sealing in the admin log per tenant. The server never seals by itself: an ' +
      'unsealed sha256-v1 episode fails verify. Run it right after the upgrade, before anyone else could have written the database.',
  })
  @ApiOkResponse({ type: LegacySealingDto })
  async sealLegacy(): Promise<LegacySealingDto> {
    const sealing = await this.seals.sealUnsealed();
    return { sealed: sealing.sealed, chain_key_id: sealing.keyId };
  }
}
