import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';

/**
 * The server's front door for a person with a browser (a Hugging Face Space's App tab opens `/`): the interactive
 * API documentation. Not an API operation, so the OpenAPI document leaves it out, as it leaves out /docs itself.
 */
@Controller()
export class RootController {
  @Access.Public()
  @Get()
  @ApiExcludeEndpoint()
  @Redirect('/docs', 302)
  toDocs(): void {}
}
