import { BadRequestException, Inject, Injectable, UnsupportedMediaTypeException, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import typeis from 'type-is';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

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
      if (nestingDepth(req.body, MAX_NESTING) > MAX_NESTING) {
        throw new BadRequestException(`the request body is nested more than ${MAX_NESTING} levels deep`);
      }
      if (!wellFormed(req.body)) {
        throw new BadRequestException('the request body contains a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text');
      }
      next();
    });
  }
}

/** No request of this API nests deeper than a few levels; validators recurse, so deeper bodies stop here. */
const MAX_NESTING = 16;

/** Depth of a parsed JSON value, counted iteratively and only up to `limit + 1`. */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * JSON may spell unpaired surrogates ("\\ud800"); they are not Unicode text, and SQLite cannot store them as
 * UTF-8, so they are refused at the door rather than failing deep inside a query.
 */
function wellFormed(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return false;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (!key.isWellFormed()) return false;
        stack.push(child);
      }
    }
  }
  return true;
}

/** `Content-Length: 0` is no body (type-is counts it as one); chunked bodies are assumed non-empty. */
function hasNonEmptyBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > 0;
}
