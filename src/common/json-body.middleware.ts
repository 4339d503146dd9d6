import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * express.json() run as a Nest middleware, so its failures (malformed JSON, body over the limit) are thrown
 * into the global exception filter and answered with the service's error body instead of express's HTML page.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: express.RequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.parse = express.json({ limit: config.bodyLimitBytes, strict: true });
  }

  use(req: Request, res: Response, next: NextFunction): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    }).then(() => next());
  }
}
