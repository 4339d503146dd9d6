import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { hardenBuiltins } from './common/harden-builtins';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app/create-app';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  // Everything is loaded: from here on, built-ins every tenant shares cannot be changed (prototype pollution).
  hardenBuiltins();
  await app.listen(config.port, config.host);
  Logger.log(`SupportDesk listening on http://${config.host}:${config.port} (docs at /docs)`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  console.error('SupportDesk failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
