import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import {
  EMAIL_VARIABLES,
  LANDING_VARIABLES,
} from '../src/modules/phishing/templates/templates.render.model.js';

// The lists the README and the guides give a reader, against what the code has: a command or a
// template variable added later fails here until the lists name it.

const read = (file: string) => readFileSync(file, 'utf8').replace(/\s+/g, ' ');

/** What `vigil … --help` prints. */
async function help(...args: string[]): Promise<string> {
  let out = '';
  await main([...args, '--help'], { stdout: (s) => (out += s), stderr: () => {}, env: {} });
  return out;
}

/** The commands a help text lists under "Commands:", without `help`. */
const commandsIn = (text: string): string[] =>
  [...(text.split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}([a-z-]+)/gm)]
    .map((m) => m[1] as string)
    .filter((name) => name !== 'help');

describe('the lists of the documentation', () => {
  it("names every command of `vigil`, and each one's subcommands, in the README and the operations guide", async () => {
    const commands = commandsIn(await help());
    expect(commands).toEqual(expect.arrayContaining(['account', 'key', 'campaign', 'phishing', 'migrate']));
    const readme = read('README.md');
    const operations = read('docs/operations.md');
    for (const command of commands) {
      expect(readme, command).toContain(`\`${command}\``);
      const subcommands = commandsIn(await help(command));
      const listed = subcommands.length === 0 ? `\`${command}\`` : `\`${command} ${subcommands.join('|')}\``;
      expect(operations, command).toContain(listed);
    }
  });

  it('names every template variable where the README and the phishing guide list them', () => {
    const readme = read('README.md');
    const guide = read('docs/phishing.md');
    for (const name of EMAIL_VARIABLES) {
      expect(readme, name).toContain(`{{${name}}}`);
      expect(guide, name).toContain(`{{${name}}}`);
    }
    expect(LANDING_VARIABLES.every((name) => EMAIL_VARIABLES.includes(name))).toBe(true);
  });
});
