// `npm start`: install if needed, build if needed, then run the compiled server (which migrates and
// seeds) as if exec'd: a signal sent to this process (or to npm's, which passes it on) reaches the
// server once, and we exit the way the server did.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { checkNode, ensureDependencies, ensureServerBuild, ensureWebBuild, root } from './lib.mjs';

checkNode();
ensureDependencies();
ensureWebBuild();
ensureServerBuild();

// its own process group: a terminal's Ctrl-C reaches the server through us only, so once, like any other signal.
// Warnings and errors only, unless LOG_LEVEL says otherwise: the server's start-up lines and a JSON line per
// request would push the address and the demo sign-in off the screen.
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { LOG_LEVEL: 'warn', ...process.env },
  detached: true,
});

// A Ctrl-C arrives twice (from the terminal and passed on by npm) within moments; a second one
// a while later is a deliberate "stop now", which the server honours
const lastSent = new Map();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    const now = Date.now();
    if (now - (lastSent.get(signal) ?? 0) < 500) return;
    lastSent.set(signal, now);
    child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  if (signal) {
    // die of the same signal, so our parent sees what the server saw
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
