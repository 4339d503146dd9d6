import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { APP_VERSION } from '../common/app-version';
import { PROJECT_ROOT } from '../common/project-root';
import { SchemaService } from './schema.service';

export class MetadataDto {
  @ApiProperty()
  name!: string;
  @ApiProperty()
  description!: string;
  @ApiProperty()
  version!: string;
  @ApiProperty({ required: false })
  readme_content?: string;
  @ApiProperty()
  documentation_url!: string;
}

export class EnvironmentSchemasDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of an action' })
  action!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of an observation' })
  observation!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of an episode state (GET /state)' })
  state!: Record<string, unknown>;
}

const DESCRIPTION =
  'Customer-support environment: open tickets, search a policy knowledge base, set priority, route, reply and ' +
  'resolve; partial-progress rewards and an explained grade, or feedback only at the end for evaluation. Three task ' +
  'families draw a different instance for every seed, split into train and test seeds. Every step is persisted and auditable.';

function readReadme(): string | undefined {
  try {
    return readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  } catch {
    return undefined;
  }
}

/** OpenEnv's discovery routes. */
@ApiTags('openenv')
@Controller()
export class MetadataController {
  private readonly readme = readReadme();

  constructor(private readonly schemas: SchemaService) {}

  @Access.Public()
  @Get('metadata')
  @ApiOperation({ operationId: 'getMetadata', summary: 'Name, description and version of the environment (OpenEnv)' })
  @ApiOkResponse({ type: MetadataDto })
  metadata(): MetadataDto {
    return {
      name: 'supportdesk',
      description: DESCRIPTION,
      version: APP_VERSION,
      ...(this.readme === undefined ? {} : { readme_content: this.readme }),
      documentation_url: '/docs',
    };
  }

  @Access.Public()
  @Get('schema')
  @ApiOperation({ operationId: 'getSchemas', summary: 'JSON Schemas of the action, the observation and the state (OpenEnv)' })
  @ApiOkResponse({ type: EnvironmentSchemasDto })
  schema(): EnvironmentSchemasDto {
    return this.schemas.environmentSchemas();
  }
}
