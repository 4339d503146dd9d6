import { BadRequestException, Inject, Injectable, UnsupportedMediaTypeException, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import typeis from 'type-is';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { jsonInputProblem } from './json-input';

/**
 * express.json() run as a Nest middleware, so its failures (malformed JSON, body over the limit) are thrown
 * into the global exception filter and answered with the service's error body instead of express's HTML page.
 * A body in any other format is refused (415) rather than ignored: ignoring it would run the request with
 * defaults the client never asked for.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: express.RequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.parse = express.json({ limit: config.bodyLimitBytes, strict: true });
  }

  use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (hasNonEmptyBody(req) && !typeis(req, ['application/json', 'application/*+json'])) {
      throw new UnsupportedMediaTypeException(
        `the request body must be JSON (content-type: application/json), got ${req.headers['content-type'] ?? 'no content-type'}`,
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    }).then(() => {
      const problem = jsonInputProblem(req.body, 'the request body');
      if (problem) throw new BadRequestException(problem);
      next();
    });
  }
}

/** `Content-Length: 0` is no body (type-is counts it as one); chunked bodies are assumed non-empty. */
function hasNonEmptyBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > 0;
}
