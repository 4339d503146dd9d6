/*
 * The parts of an OpenAPI 3.0 document the conformance test reads, and the few walks it needs over them. Nothing
 * here knows SupportDesk: it reads whatever the server serves at /openapi.json.
 */

export interface Schema {
  $ref?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  default?: unknown;
  description?: string;
  'x-max-decimal-places'?: number;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
  'x-access'?: string;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, Record<string, unknown>> };
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationRef {
  method: HttpMethod;
  path: string;
  operation: Operation;
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(document: OpenApiDocument): OperationRef[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] })),
  );
}

/** The schema a `$ref` points at (local references only: the document has no others). */
export function resolveRef(document: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 20) throw new Error(`reference loop at ${schema.$ref}`);
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = document.components.schemas[name];
    if (!target) throw new Error(`unresolved reference ${current.$ref}`);
    current = target;
  }
  return current;
}

/** The documented response of a status: the exact code, then its range ("4XX"), then "default". */
export function documentedResponse(operation: Operation, status: number): ResponseObject | undefined {
  return operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default;
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaTypeOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  return contentType.split(';')[0].trim().toLowerCase();
}
