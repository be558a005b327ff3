/**
 * Turns the document @fastify/swagger makes from the route schemas into one a client generator
 * can use (issue 12): every schema with a `title` becomes a named component and every copy of it
 * (a response's `Type.Object(Employee.properties, …)`, say) a `$ref` to it; each error response
 * refers to the shared `Error` (or `AuthError`) schema, narrowed to the codes it carries; a
 * schema's `x-openapi` keyword replaces what it documents (a path id that the server reads as
 * text is an integer to a client); and responses name the headers they carry. The route
 * schemas themselves (validation, serialization) are untouched: this is documentation only.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The doc-only keyword: what a schema is documented as, instead of what it validates. */
export const OPENAPI_OVERRIDE = 'x-openapi';

/** Keys that do not make two schemas different types (a copy keeps its own words and examples). */
const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title']);

function shapeOf(schema: Json): string {
  return JSON.stringify(schema, (key, value) => (ANNOTATIONS.has(key) ? undefined : value));
}

export interface ComponentOptions {
  /** Response headers by name, documented once under `components.headers`. */
  headers: Record<string, Json>;
  /** Request parameters documented once under `components.parameters`. */
  parameters: Record<string, Json>;
  /** The shared parameters of one operation (by method). */
  parametersOf: (method: string) => string[];
  /** The headers of one response: its operation, status and whether the route needs a key. */
  headersOf: (
    status: string,
    operation: { method: string; authenticated: boolean; operationId: string },
  ) => string[];
}

const ERROR_KEYS = JSON.stringify(['code', 'details', 'error', 'request_id', 'status']);
const AUTH_ERROR_KEYS = JSON.stringify(['error', 'status']);
const keysOf = (schema: Json) => JSON.stringify(Object.keys((schema.properties as Json) ?? {}).sort());

export function componentize(document: Json, options: ComponentOptions): Json {
  const doc = structuredClone(document);
  const components = (doc.components ?? {}) as Json;
  const named = (components.schemas ?? {}) as Record<string, Json>;
  /** Each component's shape → its name (filled as components are named, below). */
  const byShape = new Map<string, string>();

  const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  /** Applies `x-openapi` (bottom-up) and names every titled schema. */
  const name = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(name);
    if (!isObject(node)) return node;
    let out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === 'examples' || key === 'example' ? value : name(value);
    }
    const override = out[OPENAPI_OVERRIDE];
    if (isObject(override)) {
      const { [OPENAPI_OVERRIDE]: _override, ...rest } = out;
      out = {
        ...(rest.description !== undefined ? { description: rest.description } : {}),
        ...override,
      };
    }
    const title = out.title;
    if (typeof title !== 'string') return out;
    const { title: _title, ...schema } = out;
    const shape = shapeOf(schema);
    const earlier = named[title];
    if (earlier && shapeOf(earlier) !== shape) {
      throw new Error(`Customer API OpenAPI: two different schemas are titled "${title}"`);
    }
    if (!earlier) named[title] = schema;
    byShape.set(shape, title);
    return refTo(title);
  };

  /** A response's or request body's schema: a known shape becomes its component. */
  const refer = (schema: unknown): unknown => {
    if (!isObject(schema) || schema.$ref) return schema;
    if (schema.type === 'object' && keysOf(schema) === ERROR_KEYS) {
      const code = (schema.properties as Json).code as Json;
      return {
        allOf: [
          refTo('Error'),
          { type: 'object', properties: { code: { type: 'string', enum: code.enum } } },
        ],
      };
    }
    if (schema.type === 'object' && keysOf(schema) === AUTH_ERROR_KEYS) return refTo('AuthError');
    const known = byShape.get(shapeOf(schema));
    if (known) return refTo(known);
    if (schema.type === 'array' && isObject(schema.items)) return { ...schema, items: refer(schema.items) };
    return schema;
  };

  // The components given (their nested titled schemas named too), then every titled schema of
  // the operations, so that the copies met below find their component.
  for (const [title, schema] of Object.entries(named)) {
    const { title: _title, ...rest } = schema;
    named[title] = Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, k === 'examples' ? v : name(v)]),
    );
    byShape.set(shapeOf(named[title]), title);
  }
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const item of Object.values(paths))
    for (const [method, op] of Object.entries(item)) item[method] = name(op) as Json;

  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op.operationId !== 'string') {
        throw new Error(`Customer API OpenAPI: ${method.toUpperCase()} ${path} has no operationId`);
      }
      const authenticated = Array.isArray(op.security) ? op.security.length > 0 : true;
      const shared = options.parametersOf(method);
      if (shared.length > 0) {
        op.parameters = [
          ...((op.parameters ?? []) as Json[]),
          ...shared.map((p) => ({ $ref: `#/components/parameters/${p}` })),
        ];
      }
      // A parameter's example is what its documented schema shows (a path id: 17, not "17").
      for (const parameter of (op.parameters ?? []) as Json[]) {
        const examples = (parameter.schema as Json | undefined)?.examples;
        if (Array.isArray(examples) && examples.length > 0) parameter.example = examples[0];
      }
      for (const media of Object.values(((op.requestBody as Json)?.content ?? {}) as Record<string, Json>)) {
        media.schema = refer(media.schema);
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          const schema = media.schema as Json | undefined;
          if (isObject(schema) && schema.description === response.description) delete schema.description;
          media.schema = refer(media.schema);
        }
        const headers = options.headersOf(status, {
          method,
          authenticated,
          operationId: op.operationId,
        });
        if (headers.length > 0) {
          response.headers = {
            ...((response.headers as Json) ?? {}),
            ...Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
          };
        }
      }
    }
  }

  return {
    ...doc,
    components: { ...components, schemas: named, parameters: options.parameters, headers: options.headers },
  };
}
