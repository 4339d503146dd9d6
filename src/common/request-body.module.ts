import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { JsonBodyMiddleware } from './json-body.middleware';

/**
 * Body parsing as a module of its own, imported after the logger module: Nest applies module middleware in
 * import order, so every request is logged even when its body is refused here.
 */
@Module({})
export class RequestBodyModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // /mcp reads its own body: a malformed one must get a JSON-RPC error envelope, not the REST error body.
    consumer
      .apply(JsonBodyMiddleware)
      .exclude({ path: 'mcp', method: RequestMethod.ALL })
      .forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
