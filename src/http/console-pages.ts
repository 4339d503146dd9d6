import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_ROOT } from '../common/project-root';
import type { ErrorBodyDto } from '../common/error-body.dto';
import { errorCodeOf, reasonPhrase } from '../common/errors/error-translator';

/** Where `npm run build` puts the console (console/vite.config.mts); the image copies dist/ whole. */
export const CONSOLE_DIR = join(PROJECT_ROOT, 'dist', 'console');

/*
 * The page may load only its own scripts and styles and talk only to this server (the console reaches the API
 * through the generated client, same origin). Observable Plot puts a <style> element and style attributes in each
 * chart it draws, hence 'unsafe-inline' for styles only; no inline script runs.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Serves the console (a single-page app) at /console: its hashed assets with a year's caching, and its page for
 * /console and every path under it, so a shared URL such as /console/episodes/<id>?step=3 opens where it points.
 * The routes are not API routes (they are not in openapi.json) and need no key: the page asks for one itself and
 * sends it with each API call. Without a build, /console answers 404 saying how to build it.
 */
export async function registerConsolePages(instance: FastifyInstance, dir: string = CONSOLE_DIR): Promise<void> {
  const indexFile = join(dir, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (page === null) {
      const body: ErrorBodyDto = {
        statusCode: 404,
        error: reasonPhrase(404),
        code: errorCodeOf(404),
        message: 'the console is not built: run `npm run build` (npm start does), then reload',
        request_id: String(request.id),
      };
      return reply.code(404).send(body);
    }
    return reply.headers(PAGE_HEADERS).send(page);
  };
  instance.get('/console', sendPage);
  instance.get('/console/*', sendPage);
  if (page !== null) {
    await instance.register(fastifyStatic, {
      root: join(dir, 'assets'),
      prefix: '/console/assets/',
      // File names carry a content hash (Vite), so a cached file is never stale.
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
      index: false,
      // Only the build's own files: a dotfile left in the folder is not one (the plugin serves them by default).
      dotfiles: 'ignore',
      setHeaders: (reply) => {
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  }
}
