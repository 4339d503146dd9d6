import { documentedResponse, mediaTypeOf, type OperationRef } from './openapi-model';
import type { PlannedRequest } from './conformance-requests';
import type { SchemaValidator } from './schema-validator';

/*
 * What an answer must satisfy for the document to describe the server exactly: a status the operation lists, a
 * content type that status lists, a body its schema accepts (every line of a JSON Lines body), an error body
 * whose statusCode is the status; a request that breaks a documented constraint refused, naming the field; a
 * request that keeps them all never refused for its shape.
 */

export interface Observed {
  status: number;
  contentType: string | undefined;
  /** The body as text (null for an event stream, which is left open and not read). */
  text: string | null;
}

export interface Finding {
  kind: string;
  operation: string;
  detail: string;
}

/** The status each kind of broken constraint must get (body and parameter rules: 422, or 400 for a body that is not an object). */
const EXPECTED_STATUS: Record<string, number[]> = {
  security: [401, 403],
  host: [403],
  'content-type': [415],
  json: [400],
  size: [413],
};

/**
 * Statuses a valid request may get for the server's state or the caller's rights rather than its own shape (a 403
 * for a parameter only the admin key may use; the right key always goes with a valid request, so a 401 is not here).
 */
const STATE_STATUSES = new Set([403, 404, 409, 429, 503]);

export class ConformanceChecker {
  constructor(
    private readonly responses: SchemaValidator,
    /** The same schemas with objects left open: tells an undocumented field from a wrong one. */
    private readonly openResponses: SchemaValidator,
  ) {}

  check(request: PlannedRequest, observed: Observed): Finding[] {
    const findings: Finding[] = [];
    const { op } = request;
    const name = `${op.method.toUpperCase()} ${op.path}`;
    const report = (kind: string, detail: string) => findings.push({ kind, operation: name, detail: `${detail} [${describe(request)}]` });
    const documented = documentedResponse(op.operation, observed.status);
    // 503 (the database busy or closed) is the server's situation, not a failure, when the operation documents it.
    // 503 (the database busy or closed) is the server's situation, not a failure: it must be documented, that is all.
    if (observed.status >= 500 && observed.status !== 503) report('5xx', `${observed.status}: ${(observed.text ?? '').slice(0, 300)}`);
    if (!documented) {
      report('status not documented for the operation', `${observed.status}: ${(observed.text ?? '').slice(0, 200)}`);
      return findings;
    }
    const body = this.checkBody(op, observed, documented.content, report);
    if (observed.status >= 400 && isErrorBody(body) && body.statusCode !== observed.status) {
      report('error body statusCode differs from the status', `${observed.status} with statusCode ${body.statusCode}`);
    }
    const jsonRpc = isJsonRpcEnvelope(body);
    if (request.kind === 'valid') this.checkValid(request, observed, body, jsonRpc, report);
    else this.checkInvalid(request, observed, body, jsonRpc, report);
    return findings;
  }

  private checkBody(op: OperationRef, observed: Observed, content: Record<string, { schema?: object }> | undefined, report: (kind: string, detail: string) => void): unknown {
    const mediaType = mediaTypeOf(observed.contentType);
    const empty = observed.text === '' && mediaType === null;
    if (!content || Object.keys(content).length === 0) {
      if (!empty) report('content type not documented for the status', `${observed.status} ${mediaType}: the document lists no body`);
      return undefined;
    }
    // A documented media type may carry parameters (`text/plain; version=0.0.4`): the type itself is what must match.
    const documentedType = Object.keys(content).find((key) => mediaTypeOf(key) === mediaType);
    if (mediaType === null || documentedType === undefined) {
      report('content type not documented for the status', `${observed.status} ${mediaType ?? '(none)'}; documented: ${Object.keys(content).join(', ')}`);
      return undefined;
    }
    const schema = content[documentedType].schema;
    if (observed.text === null || !schema) return undefined;
    if (mediaType === 'application/x-ndjson') {
      const lines = observed.text.split('\n').filter((line, i, all) => !(line === '' && i === all.length - 1));
      for (const line of lines) this.validate(schema, parse(line, report, observed.status), observed.status, report, 'line');
      return undefined;
    }
    if (!/json$/.test(mediaType)) return undefined;
    const value = parse(observed.text, report, observed.status);
    this.validate(schema, value, observed.status, report, 'body');
    return value;
  }

  private validate(schema: object, value: unknown, status: number, report: (kind: string, detail: string) => void, what: string): void {
    if (value === PARSE_FAILED) return;
    const problems = this.responses.problems(schema as never, value);
    if (!problems) return;
    const open = this.openResponses.problems(schema as never, value);
    if (open) report('response does not match its schema', `${status} ${what}: ${open.slice(0, 700)}`);
    else report('response has undocumented properties', `${status} ${what}: ${problems.slice(0, 700)}`);
  }

  private checkValid(request: PlannedRequest, observed: Observed, body: unknown, jsonRpc: boolean, report: (kind: string, detail: string) => void): void {
    if (observed.status < 400 || STATE_STATUSES.has(observed.status) || jsonRpc) return;
    const details = isErrorBody(body) ? JSON.stringify(body.details ?? body.message) : (observed.text ?? '').slice(0, 200);
    report('schema-valid request refused', `${observed.status}: ${details}`);
  }

  private checkInvalid(request: PlannedRequest, observed: Observed, body: unknown, jsonRpc: boolean, report: (kind: string, detail: string) => void): void {
    if (jsonRpc) {
      // A JSON-RPC route refuses in its envelope: an HTTP error, or 200 with an `error` member.
      if (observed.status < 400 && !(body as { error?: unknown }).error && !Array.isArray(body)) report('schema-invalid request accepted', `${observed.status}`);
      return;
    }
    const rule = request.rule!;
    const expected = EXPECTED_STATUS[rule] ?? (request.field === '' && rule === 'type' ? [400] : [422]);
    if (observed.status < 400) {
      // An array documented with `x-item-results` (POST /step/batch) answers each item on its own: the broken item's
      // result is the refusal, with its error body.
      const item = itemResultOf(request.field, body);
      if (item === null) {
        report('schema-invalid request accepted', `${observed.status}: ${(observed.text ?? '').slice(0, 200)}`);
        return;
      }
      if (!expected.includes(item.status)) {
        report('item refused with another status than its rule gets', `${rule} on "${request.field}" got ${item.status}, expected ${expected.join(' or ')}: ${JSON.stringify(item.error).slice(0, 200)}`);
        return;
      }
      this.checkNamed(rule, request.field!, item.error, report);
      return;
    }
    if (!expected.includes(observed.status) && observed.status !== 429) {
      report('refused with another status than its rule gets', `${rule} on "${request.field}" got ${observed.status}, expected ${expected.join(' or ')}: ${(observed.text ?? '').slice(0, 200)}`);
      return;
    }
    if (observed.status !== 422 || !request.field) return;
    this.checkNamed(rule, request.field, body, report);
  }

  /** A 422 names the broken field (a missing one as "<field> is required"). */
  private checkNamed(rule: string, field: string, body: unknown, report: (kind: string, detail: string) => void): void {
    if (!isErrorBody(body)) return;
    const details = body.details ?? [];
    const named = details.filter((d) => d.field === field || field.startsWith(`${d.field}.`) || d.field.startsWith(`${field}.`));
    if (named.length === 0) {
      report('refusal does not name the broken field', `${rule} on "${field}": ${JSON.stringify(details)}`);
      return;
    }
    if (rule === 'required' && !named.some((d) => d.field === field && d.message === `${field} is required`)) {
      report('missing field not reported as "<field> is required"', `"${field}": ${JSON.stringify(details)}`);
    }
  }
}

const PARSE_FAILED = Symbol('parse failed');

/** The result of the item a broken field lies in (`items.3.action.ticket_id`), when the answer has one per item. */
function itemResultOf(field: string | undefined, body: unknown): { status: number; error: unknown } | null {
  const index = /^[A-Za-z_]+\.(\d+)(?:\.|$)/.exec(field ?? '')?.[1];
  const results = (body as { results?: unknown } | null)?.results;
  if (index === undefined || !Array.isArray(results)) return null;
  const result = results[Number(index)] as { status?: unknown; error?: unknown } | undefined;
  return typeof result?.status === 'number' ? { status: result.status, error: result.error } : null;
}

function parse(text: string, report: (kind: string, detail: string) => void, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    report('body is not the JSON its content type says', `${status}: ${text.slice(0, 200)}`);
    return PARSE_FAILED;
  }
}

interface ErrorBody {
  statusCode: number;
  message: string;
  details?: { field: string; message: string }[];
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).statusCode === 'number';
}

function isJsonRpcEnvelope(body: unknown): boolean {
  const one = (m: unknown) => typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0';
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

function describe(request: PlannedRequest): string {
  const parts: string[] = [request.kind];
  if (request.rule) parts.push(`${request.rule}${request.field ? ` on ${request.field}` : ''}${request.brokenValue !== undefined ? ` = ${JSON.stringify(request.brokenValue)?.slice(0, 60)}` : ''}`);
  parts.push(`as ${request.credential.role}${request.credential.scheme ? `/${request.credential.scheme}` : ''}`);
  return parts.join(', ');
}
