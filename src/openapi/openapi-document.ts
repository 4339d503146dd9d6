import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_SCHEME, BEARER_SCHEME } from '../access/access.decorator';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

const DESCRIPTION =
  'SupportDesk is a deterministic, persisted customer-support environment for training and evaluating agents. ' +
  'Reset an episode on a task, step it with typed actions, and read observations, partial-progress rewards and ' +
  'an explained grade.';

/**
 * Builds the OpenAPI document from the app's controllers and DTOs. Request schemas are closed
 * (`additionalProperties: false`) because the validation pipe rejects unknown fields.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('SupportDesk')
    .setDescription(DESCRIPTION)
    .setVersion(APP_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'The server this document was fetched from')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A tenant API key, or the admin key' }, BEARER_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same key in a header' }, API_KEY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller: string, method: string) => method,
  });
  const requestSchemas = requestSchemaNames(document);
  closeRequestSchemas(document, requestSchemas);
  markOptionalFieldsNullable(document, requestSchemas);
  declareCrossCuttingResponses(document);
  applyConfiguredLimits(document, app.get<AppConfig>(APP_CONFIG));
  return document;
}

/**
 * What every route shares: public routes say explicitly that they need no credentials (`security: []`), and
 * every route can answer 429, since the rate limiter sits in front of all of them.
 */
function declareCrossCuttingResponses(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      operation.security ??= [];
      operation.responses['429'] ??= {
        description: 'Too many requests for this tenant; Retry-After says when to retry',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
      };
    }
  }
}

/** The DTOs carry hard ceilings; this server's configured limits (MAX_*_LENGTH) are what clients must meet. */
function applyConfiguredLimits(document: OpenAPIObject, config: AppConfig): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { properties?: Record<string, { maxLength?: number }> }>;
  const set = (schema: string, property: string, maxLength: number) => {
    const target = schemas[schema]?.properties?.[property];
    if (!target) throw new Error(`${schema}.${property} is not in the OpenAPI document`);
    target.maxLength = maxLength;
  };
  set('SendReplyAction', 'message', config.maxMessageLength);
  set('SearchPolicyAction', 'query', config.maxQueryLength);
}

/** Schemas reachable from request bodies: what the validation pipe guards. */
function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const names = new Set<string>();
  const schemas = document.components?.schemas ?? {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!names.has(name)) {
          names.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      visit((operation as { requestBody?: unknown })?.requestBody);
    }
  }
  return names;
}

/**
 * Every optional request field may also be sent as null, which means the same as leaving it out (the validation
 * pipe drops null fields before validating): documented as `nullable`, so clients generated from this document
 * and strict LLM tool schemas cut from it may send null.
 */
function markOptionalFieldsNullable(document: OpenAPIObject, names: Set<string>): void {
  const schemas = document.components?.schemas ?? {};
  for (const name of names) {
    const schema = schemas[name] as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [field, property] of Object.entries(schema?.properties ?? {})) {
      if (schema.required?.includes(field) || field === 'type') continue;
      const target = typeof property.$ref === 'string' ? property : (property.allOf as Record<string, unknown>[] | undefined)?.[0];
      const ref = typeof target?.$ref === 'string' ? target.$ref : null;
      if (ref === null) {
        property.nullable = true;
        continue;
      }
      // A nullable reference (OpenAPI 3.0) wraps it, with the referenced schema's type beside `nullable`.
      const referenced = schemas[ref.replace('#/components/schemas/', '')] as { type?: string } | undefined;
      const { $ref: _ref, ...rest } = property;
      schema.properties![field] = { ...rest, allOf: [{ $ref: ref }], ...(referenced?.type ? { type: referenced.type } : {}), nullable: true };
    }
  }
}

function closeRequestSchemas(document: OpenAPIObject, names: Set<string>): void {
  const schemas = document.components?.schemas ?? {};
  for (const name of names) {
    const schema = schemas[name] as { type?: string; properties?: unknown; additionalProperties?: boolean };
    if (schema?.type === 'object' || schema?.properties) schema.additionalProperties = false;
  }
}
