/** A short ES module script run in a child Node under tsx, for tests that must not touch their own process. */
import { spawn } from 'node:child_process';
import { repoRootOf } from '../runtime/env';

const REPO_ROOT = repoRootOf(import.meta.url);

export interface ScriptRun {
  /** Null when the child was killed at `timeoutMs`. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` (`node --import tsx [--import <preload>…] --input-type=module -e`) from the repository
 * root, with `env` as the child's whole environment, and kills it after `timeoutMs`.
 */
export function runModuleScript(
  script: string,
  { preloads = [], env = process.env, timeoutMs = 30_000 }: { preloads?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const imports = ['tsx', ...preloads].flatMap((module) => ['--import', module]);
    const child = spawn(process.execPath, [...imports, '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}
