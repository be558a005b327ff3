import { main } from '../../src/cli/main.js';

/** Runs `vigil …` in-process with this environment (and standard input, when given), capturing its output. */
export async function runVigil(args: string[], env: NodeJS.ProcessEnv, stdin?: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    ...(stdin === undefined ? {} : { stdin: async () => stdin }),
  });
  return { code, stdout, stderr };
}
