import { type Command, Option } from 'commander';

// A command's options that fill the fields of what it sends to a service (`--window-end` fills
// `window_end_at`) say so where they are defined, and a `400 Validation failed` is printed under
// the flags people typed, never under the API's field names: `--window-end: must be after
// --window-start`. The names come from the command definitions, so a new flag names its errors.

/** Field → which part of the option's value it is (`''` for the whole value). */
const FIELDS_OF_OPTION = new WeakMap<Option, Readonly<Record<string, string>>>();

/**
 * An option filling a field of the command's body, or several (`--hours 9-17` fills
 * `{hour_start: 'from', hour_end: 'to'}`, named `--hours (from)` and `--hours (to)`): errors
 * about them are named by its flag.
 */
export function bodyOption(
  flags: string,
  description: string,
  fields: string | Readonly<Record<string, string>>,
): Option {
  const option = new Option(flags, description);
  FIELDS_OF_OPTION.set(option, typeof fields === 'string' ? { [fields]: '' } : fields);
  return option;
}

/** The fields of a command's body, each with the flags that fill it (`password` → `--password`, `--password-stdin`). */
export function flagsOfFields(command: Command): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (const option of command.options) {
    for (const [field, part] of Object.entries(FIELDS_OF_OPTION.get(option) ?? {})) {
      const flag = option.long ?? option.flags;
      flags.set(field, [...(flags.get(field) ?? []), part ? `${flag} (${part})` : flag]);
    }
  }
  return flags;
}

/** `vigil phishing create`. */
function commandLine(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** How an error about `field` is named for `command`: its flags, or a sibling command's (`launch` reports what `create` set). */
function nameOf(command: Command, field: string): string | undefined {
  const own = flagsOfFields(command).get(field);
  if (own) return own.join(' / ');
  for (const sibling of command.parent?.commands ?? []) {
    if (sibling === command) continue;
    const flags = flagsOfFields(sibling).get(field);
    if (flags) return `${flags.join(' / ')} (of ${commandLine(sibling)})`;
  }
  return undefined;
}

/** The field a path is about: `group_ids[2]` and `lessons[0].title` are about `group_ids` and `lessons`. */
const fieldOf = (path: string) => path.split(/[.[]/, 1)[0] as string;

/** A message with the API's field names in it, in flags: "must be after --window-start". */
export function flagMessage(command: Command | undefined, message: string): string {
  if (!command) return message;
  return message.replace(
    /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g,
    (word) => flagsOfFields(command).get(word)?.join(' / ') ?? word,
  );
}

/** One line a field of a `400 Validation failed`: `--window-end: must be after --window-start`. */
export function flagLine(command: Command | undefined, path: string, messages: readonly unknown[]): string {
  const text = messages.map((m) => (command ? flagMessage(command, String(m)) : String(m))).join('; ');
  const name = command && nameOf(command, fieldOf(path));
  return `${name ?? 'a value this command does not set'}: ${text}`;
}
