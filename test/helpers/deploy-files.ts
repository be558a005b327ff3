import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DockerfileParser,
  Env,
  type From,
  ModifiableInstruction,
  type Instruction as ParsedInstruction,
} from 'dockerfile-ast';
import { parse as parseYaml } from 'yaml';

/**
 * The Dockerfile and compose.yaml as their real parsers read them: checked by
 * test/deploy-files.test.ts and carried out without Docker by .ci/production-build.ts, so the
 * checks, the no-Docker build and the files cannot drift apart.
 */

export const ROOT = resolve(import.meta.dirname, '../..');

/** One instruction of a Dockerfile. */
export interface Instruction {
  /** FROM, RUN, COPY … in capitals. */
  keyword: string;
  /** `--from=build` → `{ from: 'build' }`. */
  flags: Record<string, string | null>;
  /** The arguments after the flags, as written (line continuations joined). */
  text: string;
  /** The arguments after the flags, split on white space as Docker splits them. */
  args: string[];
  /** The exec form's array (`CMD ["node", "dist/server.js"]`), or undefined for the shell form. */
  exec: string[] | undefined;
  /** ENV's variables, in order. */
  env: [name: string, value: string][];
  /** 1-based, for messages. */
  line: number;
}

export interface Stage {
  name: string;
  /** The base image: `node:20-bookworm-slim`. */
  image: string;
  instructions: Instruction[];
}

export function readDockerfile(path = resolve(ROOT, 'Dockerfile')): Stage[] {
  const dockerfile = DockerfileParser.parse(readFileSync(path, 'utf8'));
  const stages: Stage[] = [];
  for (const parsed of dockerfile.getInstructions()) {
    const instruction = toInstruction(parsed);
    if (instruction.keyword === 'FROM') {
      const from = parsed as From;
      const image = from.getImage();
      if (!image) throw new Error(`Dockerfile line ${instruction.line}: FROM without an image`);
      stages.push({ name: from.getBuildStage() ?? String(stages.length), image, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

function toInstruction(parsed: ParsedInstruction): Instruction {
  const flags: Record<string, string | null> = {};
  if (parsed instanceof ModifiableInstruction) {
    for (const flag of parsed.getFlags()) flags[flag.getName()] = flag.getValue();
  }
  const env: Instruction['env'] =
    parsed instanceof Env
      ? parsed.getProperties().map((p) => [p.getName(), p.getUnescapedValue() ?? ''] as [string, string])
      : [];
  const text = (parsed.getArgumentsContent() ?? '').replace(/\\\r?\n/g, '').trim();
  return {
    keyword: parsed.getKeyword(),
    flags,
    text,
    args: parsed.getArguments().map((a) => a.getValue()),
    exec: execForm(text),
    env,
    line: parsed.getRange().start.line + 1,
  };
}

function execForm(text: string): string[] | undefined {
  if (!text.startsWith('[')) return undefined;
  const array: unknown = JSON.parse(text);
  if (!Array.isArray(array) || !array.every((s) => typeof s === 'string')) return undefined;
  return array;
}

/**
 * What .ci/production-build.ts knows: WORKDIR, ENV, COPY and RUN it carries out; the rest is
 * the image's metadata, which it reads when it runs the image.
 */
export const NO_DOCKER_INSTRUCTIONS = [
  'WORKDIR',
  'ENV',
  'COPY',
  'RUN',
  'USER',
  'EXPOSE',
  'HEALTHCHECK',
  'CMD',
  'LABEL',
  'STOPSIGNAL',
];

/** A stage's environment: its ENV instructions, in order. */
export function stageEnv(stage: Stage): Record<string, string> {
  return Object.fromEntries(stage.instructions.flatMap((i) => i.env));
}

/** The instructions of a stage with this keyword. */
export function instructionsOf(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}

/** The HEALTHCHECK's command in exec form (`HEALTHCHECK [flags] CMD ["…"]`). */
export function healthcheckCommand(instruction: Instruction): string[] | undefined {
  const command = instruction.text.replace(/^CMD\s+/, '');
  return command === instruction.text ? undefined : execForm(command);
}

/** compose.yaml as Docker Compose reads it: merge keys (`<<: *vigil`) resolved. */
export interface Compose {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export interface ComposeService {
  image?: string;
  build?: string | { context: string };
  command?: string[] | string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  stop_grace_period?: string;
  [key: string]: unknown;
}

export function readCompose(path = resolve(ROOT, 'compose.yaml')): Compose {
  return parseYaml(readFileSync(path, 'utf8'), { merge: true }) as Compose;
}

/**
 * Compose's variable interpolation — `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
 * `${NAME:?error}`, `${NAME?error}` — with the given variables, as `docker compose` does with
 * the shell's and `.env`'s.
 */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g, (_, name: string, colon, kind, word = '') => {
    const set = name in vars && (colon !== ':' || vars[name] !== '');
    if (set) return vars[name] as string;
    if (kind === '?') throw new Error(`${name}: ${word || 'required'}`);
    return kind === '-' ? word : '';
  });
}
