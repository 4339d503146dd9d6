import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { EnrollmentDto } from './dto/enrollment.dto';
import { LedgerEnrollment } from './ledger/ledger-enrollment';

@ApiTags('admin')
@Controller('admin/ledger')
export class AdminLedgerController {
  constructor(private readonly enrollment: LedgerEnrollment) {}

  @Access.Admin()
  @Post('enroll')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'enrollEpisodes',
    summary: 'Bring the episodes stored before the tenant ledger into it (run once, right after upgrading)',
    description:
      'Seals every episode still on release 0.1\'s unkeyed sha256-v1 chain under the current chain key, then enters every episode ' +
      'that has no ledger entry into its tenant\'s ledger, committing to its metadata, feedback mode and chain as they stand; each is ' +
      'recorded in the admin log per tenant. The server never does this by itself: until then verify reports such episodes. Run it ' +
      'right after the upgrade, before anyone else could have written the database. Running it again enrols only what is new.',
  })
  @ApiOkResponse({ type: EnrollmentDto })
  async enroll(): Promise<EnrollmentDto> {
    const done = await this.enrollment.enrollAll();
    return { sealed: done.sealed, enrolled: done.enrolled, chain_key_id: done.keyId };
  }
}
