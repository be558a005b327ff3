// How a form names the API's fields in error messages. A `400 Validation failed` maps field
// paths (`window_end_at`, `lessons[2].title`, `red_flags[0].quote`) to messages, and a message may
// name another field ("must be after window_start_at"). People know the form's labels, not the
// API's names: every message shown goes through here, and a field the form has no name for is
// described as such, never by its API name.

/**
 * A form's name for each field path it can be told about: `name`, `lessons[]` ("Lesson {1}"),
 * `lessons[].title` ("Lesson {1}, title"). `[]` stands for any index; `{1}`, `{2}`… in the name
 * are the first, second… index, counted from 1.
 */
export type FieldNames = Readonly<Record<string, string>>;

/** What a message about a field no name is known for is prefixed with. */
export const UNNAMED_FIELD = 'A value this form does not show';

/** `lessons[2].title` → the pattern `lessons[].title` and the indexes [2]. */
function patternOf(path: string): { pattern: string; indexes: number[] } {
  const indexes: number[] = [];
  const pattern = path.replace(/\[(\d{1,9})\]/g, (_m, n: string) => {
    indexes.push(Number(n));
    return '[]';
  });
  return { pattern, indexes };
}

function fill(name: string, indexes: number[]): string {
  return name.replace(/\{(\d)\}/g, (m, i: string) => {
    const index = indexes[Number(i) - 1];
    return index === undefined ? m : String(index + 1);
  });
}

/**
 * The form's name of a field path, or undefined when it has none. A path more detailed than any
 * the form names is named by its closest named parent (`quiz[1].choices[3]` by `quiz[].choices`
 * when the form names no single choice).
 */
export function fieldName(names: FieldNames | undefined, path: string): string | undefined {
  if (!names) return undefined;
  const { pattern, indexes } = patternOf(path);
  let candidate = pattern;
  for (;;) {
    if (Object.hasOwn(names, candidate)) {
      const kept = (candidate.match(/\[\]/g) ?? []).length;
      return fill(names[candidate] as string, indexes.slice(0, kept));
    }
    const cut = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['));
    if (cut <= 0) return undefined;
    candidate = candidate.slice(0, cut);
  }
}

/**
 * A message with the API's field names in it ("must be after window_start_at") in the form's
 * words ("must be after Window starts"). Only names the form knows are replaced: other words
 * with underscores are values (`teach_on_click`), which the message quotes as the API takes them.
 */
export function fieldMessage(names: FieldNames | undefined, message: string): string {
  if (!names) return message;
  return message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) =>
    Object.hasOwn(names, word) ? (names[word] as string) : word,
  );
}

/** One line for an alert: "Window ends: must be after Window starts". */
export function fieldLine(names: FieldNames | undefined, path: string, messages: readonly unknown[]): string {
  const text = messages.map((m) => fieldMessage(names, String(m))).join('; ');
  const name = fieldName(names, path);
  return name === undefined ? `${UNNAMED_FIELD}: ${text}` : `${name}: ${text}`;
}
