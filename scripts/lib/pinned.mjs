// npm tools pinned by a committed package.json + package-lock.json, installed with `npm ci` into a prefix
// under .tools/ (outside the workspace), again only when a pinned file changes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs one set-up command; exits the process if it fails. */
export function setupStep(command, args, what, log) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    // Without network the default index fails on every package: do not retry it (a mirror answers).
    env: {
      ...process.env,
      npm_config_engine_strict: 'false',
      PIP_RETRIES: '0',
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
    },
  });
  if (result.status !== 0) {
    log(`could not ${what}`);
    process.exit(1);
  }
}

/**
 * `npm ci` of sourceDir's package.json and package-lock.json into prefix; `extraPins` (more files of
 * sourceDir) and `afterNpm` (more set-up after npm) for the checks that pin other tools too.
 */
export function ensurePinned({ sourceDir, prefix, log, what, extraPins = [], afterNpm }) {
  const files = ['package.json', 'package-lock.json'];
  const pins = [...files, ...extraPins].map((f) => readFileSync(join(sourceDir, f)));
  const hash = createHash('sha256').update(Buffer.concat(pins)).digest('hex');
  const stamp = join(prefix, '.pins');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  log(`installing the pinned ${what} into ${prefix} (once)`);
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  for (const file of files) copyFileSync(join(sourceDir, file), join(prefix, file));
  setupStep(
    'npm',
    ['ci', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'],
    `install the ${what}`,
    log,
  );
  afterNpm?.();
  writeFileSync(stamp, hash);
}
