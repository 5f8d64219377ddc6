// `npm start`: install if needed, build if needed, then run the server (which migrates and seeds).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { checkNode, ensureDependencies, ensureWebBuild, root } from './lib.mjs';

checkNode();
ensureDependencies();
ensureWebBuild();

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
// Ctrl-C reaches the server directly (same process group); forward what is sent to us alone
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
