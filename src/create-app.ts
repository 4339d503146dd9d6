import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { answerClientErrorsWithErrorBody } from './common/client-error-handler';
import { limitConnections } from './common/connection-limits';
import type { AppConfig } from './config/app-config';
import { configureApp } from './configure-app';

/** Builds the full application for a configuration without listening (main.ts, tests and scripts use it). */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  // Nest's own messages go through pino too, so the whole log is JSON lines.
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // A client that goes quiet mid-request is cut off after REQUEST_TIMEOUT_MS of silence (socket timeout, exact);
  // one that trickles bytes in is cut off once headers or the whole request take too long (Node checks those
  // deadlines every few seconds).
  const server = app.getHttpServer() as Server;
  server.timeout = config.requestTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  answerClientErrorsWithErrorBody(server);
  limitConnections(server, config);
  configureApp(app);
  await app.init();
  return app;
}
