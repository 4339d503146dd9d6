import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { configureApp } from './configure-app';

/** Builds the full application for a configuration without listening (main.ts, tests and scripts use it). */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    logger: config.logLevel === 'silent' ? false : levelsFrom(config.logLevel),
  });
  app.disable('x-powered-by');
  configureApp(app);
  await app.init();
  return app;
}

const LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

function levelsFrom(level: (typeof LEVELS)[number]) {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}
