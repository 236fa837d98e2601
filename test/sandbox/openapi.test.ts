import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../api/endpoints';
import type { Sandbox } from '../../sandbox/index';
import { withSandbox, type Loose } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await withSandbox({ seed: 'none' });
});
afterAll(() => sb.close());

describe('GET /openapi.json', () => {
  it('serves a valid OpenAPI 3.1 document covering every operation', async () => {
    const response = await fetch(`${sb.apiHost}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Loose;
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.servers[0].url).toBe(sb.baseUrl);
    for (const endpoint of ENDPOINTS) {
      const operation = document.paths[endpoint.path][endpoint.method.toLowerCase()];
      expect(operation.operationId).toBe(endpoint.operationId);
      expect(operation.responses[String(endpoint.successStatus)]).toBeDefined();
    }
    expect(document.paths['/oauth/token'].post.requestBody.content['application/json']).toBeDefined();
  });
});
