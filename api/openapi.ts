// The OpenAPI 3.1 document of /v1, generated from the zod schemas (never written by hand).
import { z } from 'zod';
import { ENDPOINTS } from './endpoints';
import { ERROR_STATUS, errorBodySchema, oauthErrorBodySchema } from './errors';
import { tokenRequestSchema, tokenResponseSchema } from './requests';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function queryParameters(schema: z.ZodType): unknown[] {
  const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

const errorResponse = {
  description: 'An error; see docs/spec-gaps.md for the code of each case',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
};

export function buildOpenApiDocument(options: { baseUrl: string; apiHost: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const operation: Record<string, unknown> = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      security: [{ bearer: [] }],
      'x-permissions': endpoint.permissions,
      'x-oauth-scopes': endpoint.scopes,
      'x-emits': endpoint.emits,
      parameters: [
        ...(endpoint.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : []),
        ...('query' in endpoint && endpoint.query ? queryParameters(endpoint.query) : []),
        ...(endpoint.method === 'POST'
          ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }]
          : []),
      ],
      responses: {
        [String(endpoint.successStatus)]: {
          description: 'Success',
          content: { 'application/json': { schema: schemaOf(endpoint.response, 'output') } },
        },
        default: errorResponse,
      },
    };
    if ('body' in endpoint && endpoint.body) {
      operation.requestBody = {
        required: !('bodyOptional' in endpoint && endpoint.bodyOptional),
        content: { 'application/json': { schema: schemaOf(endpoint.body, 'input') } },
      };
    }
    const path = (paths[endpoint.path] ??= {});
    path[endpoint.method.toLowerCase()] = operation;
  }
  paths['/oauth/token'] = {
    servers: [{ url: options.apiHost }],
    post: {
      operationId: 'oauthToken',
      summary: 'Exchange an authorization code or a refresh token (JSON body, on {api_host}: no /v1)',
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(tokenRequestSchema, 'input') } } },
      responses: {
        '200': { description: 'Tokens', content: { 'application/json': { schema: schemaOf(tokenResponseSchema, 'output') } } },
        default: { description: 'RFC 6749 error', content: { 'application/json': { schema: schemaOf(oauthErrorBodySchema, 'output') } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Restaurant POS API (sandbox)',
      version: 'v1',
      description: `Error codes and HTTP statuses: ${Object.entries(ERROR_STATUS)
        .map(([code, status]) => `${code} ${status}`)
        .join(', ')}.`,
    },
    servers: [{ url: options.baseUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (sk_test_/sk_live_) or an OAuth access token (at_live_)' } },
      schemas: { ErrorBody: schemaOf(errorBodySchema, 'output') },
    },
  };
}
