import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/access.decorator';
import { Metrics } from './metrics';

/** The media type of Prometheus's text exposition format (sent with `; charset=utf-8`). */
const EXPOSITION_MEDIA_TYPE = 'text/plain; version=0.0.4';

const EXAMPLE = [
  '# HELP supportdesk_steps_total Steps applied (committed and durable), by action type and transport',
  '# TYPE supportdesk_steps_total counter',
  'supportdesk_steps_total{action="open_ticket",transport="http"} 42',
  '',
].join('\n');

@ApiTags('service')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Access.Metrics()
  @ApiOperation({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics: HTTP requests, steps and resets, group commits, grading time, sessions, refusals, storage (docs/metrics.md)',
  })
  @ApiOkResponse({
    description: 'Every metric in the Prometheus text exposition format 0.0.4 (`Content-Type: text/plain; version=0.0.4; charset=utf-8`)',
    content: { [EXPOSITION_MEDIA_TYPE]: { schema: { type: 'string' }, example: EXAMPLE } },
  })
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const exposition = await this.metrics.exposition();
    void reply.header('content-type', exposition.contentType);
    return exposition.text;
  }
}
