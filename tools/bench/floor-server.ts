import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { FLOOR_PLATFORMS, FLOOR_SERVER_COMMAND } from './bench.commands';

/**
 * A framework floor for the step benchmark: Nest 11 with JSON body parsing and a POST /step that answers a
 * constant step-sized response without touching a database, on the platform named by the first argument
 * (`fastify`, the server's; `express`, the one before). Arguments: bench.commands.ts.
 */
const CONSTANT = JSON.stringify({
  episode_id: '00000000-0000-4000-8000-000000000000',
  observation: { task_id: 'bench', instruction: 'x'.repeat(300), inbox: [], active_ticket: null, search_results: null, recent_actions: [], score: 0, step_count: 1, remaining_steps: 99, last_action_error: null },
  reward: 0,
  done: false,
  info: { task_id: 'bench', score: 0, step_count: 1, status: 'active', last_action_error: null },
});

@Controller()
class ConstantController {
  @Post('step')
  @HttpCode(200)
  step(@Body() _body: unknown): unknown {
    return JSON.parse(CONSTANT);
  }
}

@Module({ controllers: [ConstantController] })
class FloorModule {}

async function main(): Promise<void> {
  const [platform] = readCommandLine(FLOOR_SERVER_COMMAND).positionals;
  if (!FLOOR_PLATFORMS.some((known) => known === platform)) refuseCommandLine(FLOOR_SERVER_COMMAND, `[platform] must be fastify or express, got '${platform}'`);
  const adapter = platform === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const app: INestApplication = await NestFactory.create(FloorModule, adapter, { logger: false });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  console.log(`listening ${(app.getHttpServer().address() as { port: number }).port}`);
}

void main();
