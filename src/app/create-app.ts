import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { DestinationStream, Logger } from 'pino';
import { SystemClock, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { RequestAuthentication } from '../auth/request-authentication';
import { registerAuthentication } from '../http/authentication-hook';
import { registerConsolePages } from '../http/console-pages';
import { limitConnections } from '../http/connection-limits';
import { createHttpAdapter } from '../http/http-platform';
import { registerHttpMetrics } from '../http/http-metrics';
import { ProxyTrust } from '../http/proxy-trust';
import { createLogger, PinoNestLogger } from '../http/request-logging';
import { ApiDocumentService } from '../openapi/api-document.service';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import { compileBodyCheck } from '../openapi/body-check';
import { registerBodyCheck } from '../common/compiled-body-checks';
import { StepRequestDto } from '../episodes';
import { Metrics } from '../metrics';
import { AppModule } from './app.module';

export interface CreateAppOptions {
  /** The process's logger (main.ts makes it first, to log the start sequence). */
  logger?: Logger;
  /** Where the log goes instead of stdout (tests read it), when no logger is given. */
  logDestination?: DestinationStream;
  /** The time the server acts on (the machine's clock by default; tests state theirs). */
  clock?: Clock;
  /** Where the built console is (dist/console by default; tests serve a folder of their own). */
  consoleDir?: string;
}

/** Builds the full application for a configuration, ready to serve but not listening (main.ts, tests and tools). */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config, options.logDestination);
  const clock = options.clock ?? new SystemClock();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, clock), createHttpAdapter(config, logger, clock), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(new PinoNestLogger(logger));
  // Before any route runs and before its body is read: who is calling, and whether they are within their rates.
  registerAuthentication(app.getHttpAdapter().getInstance(), app.get(RequestAuthentication));
  registerHttpMetrics(app.getHttpAdapter().getInstance(), app.get(Metrics));
  app.enableShutdownHooks();
  // A client that goes quiet mid-request is cut off after REQUEST_TIMEOUT_MS of silence (socket timeout, exact);
  // one that trickles bytes in is cut off once headers or the whole request take too long (the server checks
  // those deadlines every second: see createHttpAdapter).
  const server = app.getHttpServer() as Server;
  server.timeout = config.requestTimeoutMs;
  limitConnections(server, config, ProxyTrust.of(config));
  const document = buildOpenApiDocument(app);
  app.get(ApiDocumentService).set(document);
  // The step body is checked by a validator compiled from its schema; class-validator words the refusals.
  registerBodyCheck(StepRequestDto, compileBodyCheck(document, 'StepRequestDto'));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  await registerConsolePages(app.getHttpAdapter().getInstance(), options.consoleDir);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  // Nest holds the start-up log until listen(); an app that is never listened on (tests, tools) gets it now.
  app.flushLogs();
  return app;
}
