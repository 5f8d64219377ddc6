import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

type ManifestChunk = { file: string; css?: string[]; imports?: string[] };
type Manifest = Record<string, ManifestChunk>;
type PrerenderModule = {
  renderLogin: (locale: 'zh-CN' | 'en-US', captcha: boolean) => Promise<string>;
  bootScript: (part: 'hold' | 'boot') => string;
  ENGLISH_TEMPLATE_ID: string;
};

const LOGIN_MODULE = 'src/modules/auth/login/LoginPage.tsx';

/** The files the sign-in route loads, its chunk first: JS to preload and CSS to link. */
function loginAssets(manifest: Manifest): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    js.push(chunk.file);
    css.push(...(chunk.css ?? []));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(LOGIN_MODULE);
  if (!js.length) throw new Error(`${LOGIN_MODULE} is not in the build's manifest`);
  return { js, css };
}

function writeCompressed(file: string, content: string) {
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

/**
 * After the client build: the sign-in page as HTML (ADR 041). Loads src/prerender.tsx through Vite
 * (the same sources, transformed for Node), renders the form in both languages, with and without the
 * captcha's field, and writes dist/login.html and dist/login.captcha.html (the server serves one of
 * them for /login by its CAPTCHA setting): index.html with the Chinese form in #root, the English one
 * in a <template>, a small boot script that picks the language and theme before the first paint,
 * and the sign-in route's own chunks preloaded and styles linked, so hydration does not wait for them.
 */
export function prerenderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'atrium-prerender-login',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const dist = path.resolve(config.root, config.build.outDir);
      const server = await createServer({
        root: config.root,
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        define: config.define,
        server: { middlewareMode: true, hmr: false, ws: false },
        // Arco's ES modules (no "type": "module") go through Vite rather than Node's loader
        ssr: { noExternal: ['@arco-design/web-react'] },
        css: { modules: false },
      });
      try {
        const entry = (await server.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
        const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
        const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
        const assets = loginAssets(manifest);
        const links = [
          ...assets.css.filter((file) => !index.includes(`/${file}"`)).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
          ...assets.js
            .filter((file) => !index.includes(`/${file}"`))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ].join('\n    ');
        const script = (part: 'hold' | 'boot') => {
          const source = entry.bootScript(part);
          const file = `assets/login-${part}-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
          writeFileSync(path.join(dist, file), source);
          return file;
        };
        const holdFile = script('hold');
        const bootFile = script('boot');
        for (const captcha of [false, true]) {
          const chinese = await entry.renderLogin('zh-CN', captcha);
          const english = await entry.renderLogin('en-US', captcha);
          const html = index
            .replace('<html lang="zh-CN">', `<html lang="zh-CN" data-captcha="${captcha ? 'on' : 'off'}">`)
            .replace('</head>', `  ${links}\n    <script src="/${holdFile}"></script>\n  </head>`)
            .replace(
              '<div id="root"></div>',
              () =>
                `<div id="root">${chinese}</div>\n    <template id="${entry.ENGLISH_TEMPLATE_ID}">${english}</template>\n    <script src="/${bootFile}"></script>`,
            );
          if (!html.includes(chinese) || !html.includes('data-captcha'))
            throw new Error('index.html does not have the expected <html> and #root');
          writeCompressed(path.join(dist, captcha ? 'login.captcha.html' : 'login.html'), html);
        }
      } finally {
        await server.close();
      }
    },
  };
}
