import { beforeAll, describe, expect, it } from 'vitest';
import { buildAdminOpenApiDocument } from '../src/admin/openapi-document.js';
import { fieldLine, fieldMessage, fieldName, UNNAMED_FIELD } from '../web/src/api/field-names.js';
import { FORM_FIELDS } from '../web/src/api/form-fields.js';

// The web interface names the API's fields as its forms do (web/src/api/form-fields.ts). A form's
// list of names must cover every field the schemas of its routes can report, nested ones
// included, and every admin route with a JSON body must belong to a form: a field added to a
// schema without a name in its form fails here, instead of reaching people as `window_end_at`.

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON, inspected field by field
type Schema = any;
let doc: Schema;

beforeAll(async () => {
  doc = await buildAdminOpenApiDocument();
});

const resolve = (schema: Schema): Schema =>
  schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop() as string] : schema;

/** Every field path a body schema can be reported for: `name`, `lessons[]`, `lessons[].title`… */
function fieldPaths(schema: Schema, prefix = '', out = new Set<string>()): Set<string> {
  const s = resolve(schema);
  if (!s || typeof s !== 'object') return out;
  for (const alternative of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
    fieldPaths(alternative, prefix, out);
  }
  if (s.items) {
    out.add(`${prefix}[]`);
    fieldPaths(s.items, `${prefix}[]`, out);
  }
  for (const [key, value] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.add(path);
    fieldPaths(value, path, out);
  }
  return out;
}

function bodyOf(operation: string): Schema {
  const [method, path] = operation.split(' ') as [string, string];
  return doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
}

/** A path of the pattern as the server writes it: `quiz[].choices[]` → `quiz[2].choices[1]`. */
const example = (pattern: string) => {
  let n = 2;
  return pattern.replace(/\[\]/g, () => `[${n--}]`);
};

const forms = Object.entries(FORM_FIELDS);

describe('the names the web interface gives the API’s fields', () => {
  it('cover every admin route that takes a JSON body', () => {
    const covered = new Set<string>(forms.flatMap(([, form]) => form.operations));
    const routes = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods)
          .filter(([, op]) => op?.requestBody?.content?.['application/json'])
          .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !covered.has(route))).toEqual([]);
  });

  it.each(forms)('name every field the routes of the form %s can report', (_form, { operations, names }) => {
    for (const operation of operations) {
      const schema = bodyOf(operation);
      expect(schema, `${operation} takes a JSON body`).toBeDefined();
      const unnamed = [...fieldPaths(schema)]
        .map(example)
        .filter((path) => fieldName(names, path) === undefined);
      expect(unnamed, operation).toEqual([]);
    }
  });

  it.each(forms)('are the form’s words, never the API’s (%s)', (_form, { names }) => {
    for (const [pattern, name] of Object.entries(names)) {
      expect(name, pattern).not.toMatch(/\b[a-z0-9]+_[a-z0-9_]+\b/);
    }
  });
});

describe('fieldName, fieldMessage and fieldLine', () => {
  const names = FORM_FIELDS.course.names;

  it('name nested fields by their indexes, counted from 1', () => {
    expect(fieldName(names, 'lessons[2].title')).toBe('Lesson 3, title');
    expect(fieldName(names, 'quiz[0].choices[3]')).toBe('Question 1, choice 4');
    expect(fieldName(FORM_FIELDS.phishingCampaign.names, 'group_ids[4]')).toBe('Target groups');
  });

  it('fall back to the closest named parent, and to nothing for a field the form does not know', () => {
    expect(fieldName(names, 'quiz[1].unknown')).toBe('Question 2');
    expect(fieldName(names, 'body')).toBeUndefined();
    expect(fieldName(names, '__proto__')).toBeUndefined();
    expect(fieldName(names, 'constructor')).toBeUndefined();
  });

  it('replace the API’s field names inside messages, leaving values alone', () => {
    const phishing = FORM_FIELDS.phishingCampaign.names;
    expect(fieldMessage(phishing, 'must be at most 90 days after window_start_at')).toBe(
      'must be at most 90 days after Window starts',
    );
    expect(fieldMessage(phishing, 'must be after hour_start')).toBe('must be after From hour');
    expect(fieldMessage(phishing, 'must be one of teach_on_click, teach_on_submit')).toBe(
      'must be one of teach_on_click, teach_on_submit',
    );
    expect(
      fieldMessage(
        FORM_FIELDS.campaign.names,
        'course_keys, group_ids cannot change while the campaign is active',
      ),
    ).toBe('Courses, Target groups cannot change while the campaign is active');
  });

  it('say a field the form does not show is one, instead of naming it', () => {
    expect(fieldLine(names, 'hidden_thing', ['is required'])).toBe(`${UNNAMED_FIELD}: is required`);
    expect(fieldLine(names, 'pass_mark', ['must be a whole number from 1 to 100'])).toBe(
      'Pass mark: must be a whole number from 1 to 100',
    );
  });
});
