import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { HealthDto } from './health.dto';
import type { FastifyReply } from 'fastify';
import { HealthService } from './health.service';

@ApiTags('service')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Access.Public()
  @Get()
  @ApiOperation({ operationId: 'health', summary: 'Liveness and database check' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database cannot be reached' })
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const report = await this.health.check();
    if (report.status !== 'healthy') reply.code(HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
