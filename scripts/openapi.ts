import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildCustomerOpenApiDocument } from '../src/api/openapi-document.js';

/**
 * `npm run openapi [-- FILE]`: writes the Customer API's OpenAPI document (default
 * dist/openapi/customer-api.json), the one the server serves at /api/api_gateway/openapi.json.
 */
const file = resolve(process.argv[2] ?? 'dist/openapi/customer-api.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(await buildCustomerOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${file}`);
