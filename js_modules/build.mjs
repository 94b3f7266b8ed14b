// Builds the widget bundles into ../static/js and copies vendor assets into ../static/vendor.
// Run with `npm run build` from js_modules/.
//
// Output (all generated, removed and rewritten on every build):
//   static/js/<widget>-<hash>.js          one ESM entry per src/widgets/*.jsx (exports `bind`)
//   static/js/chunks/<name>-<hash>.js     shared code (React once for all widgets)
//   static/js/manifest.json               {"entries": {"chart": "chart-XXXX.js", ...},
//                                          "sources_sha256": "<hex>"}
//   static/vendor/bootstrap/bootstrap.min.css
//   static/vendor/bootstrap-icons/bootstrap-icons.min.css + fonts/bootstrap-icons.woff2: only the icons the
//                                          console's sources name (icons.mjs)
//   static/vendor/swagger-ui/{swagger-ui.css, swagger-ui-bundle.js, favicon-32x32.png}
//
// sources_sha256 (recomputed by components/widgets/bundles.py; keep both in step):
//   files = every regular file under js_modules/src (recursively), plus js_modules/package.json,
//           js_modules/package-lock.json and js_modules/build.mjs;
//   name  = the file's path relative to js_modules/, "/"-separated (e.g. "src/lib/bind.js");
//   sort the files by name (plain code-point order), then
//   sha256 = SHA-256 over, for each file in that order: UTF-8(name) + one NUL byte + file bytes;
//   written as lowercase hex.
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { subsetIcons } from './icons.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const JS_OUT = path.join(ROOT, 'static', 'js');
const VENDOR_OUT = path.join(ROOT, 'static', 'vendor');
const WIDGETS = path.join(HERE, 'src', 'widgets');
const NODE_MODULES = path.join(HERE, 'node_modules');

const VENDOR_FILES = [
  ['bootstrap/dist/css/bootstrap.min.css', 'bootstrap/bootstrap.min.css'],
  ['swagger-ui-dist/swagger-ui.css', 'swagger-ui/swagger-ui.css'],
  ['swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui/swagger-ui-bundle.js'],
  ['swagger-ui-dist/favicon-32x32.png', 'swagger-ui/favicon-32x32.png'],
];

async function listFiles(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(full)));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

const byCodePoint = (a, b) => {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

export async function sourcesSha256() {
  const files = [
    ...(await listFiles(path.join(HERE, 'src'))),
    path.join(HERE, 'package.json'),
    path.join(HERE, 'package-lock.json'),
    path.join(HERE, 'build.mjs'),
  ];
  const named = files.map((file) => [path.relative(HERE, file).split(path.sep).join('/'), file]);
  named.sort(([a], [b]) => byCodePoint(a, b));
  const hash = createHash('sha256');
  for (const [name, file] of named) {
    hash.update(Buffer.from(name, 'utf8'));
    hash.update(Buffer.from([0]));
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

async function buildWidgets() {
  const entryFiles = (await readdir(WIDGETS)).filter((name) => name.endsWith('.jsx')).sort();
  if (entryFiles.length === 0) throw new Error(`no widgets in ${WIDGETS}`);
  const result = await esbuild.build({
    entryPoints: entryFiles.map((name) => path.join(WIDGETS, name)),
    outdir: JS_OUT,
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    target: ['es2022'],
    jsx: 'automatic',
    loader: { '.css': 'text' },  // a widget's stylesheet arrives as text for adoptCss
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const entries = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = path.basename(meta.entryPoint, '.jsx');
    entries[name] = path.relative(JS_OUT, path.resolve(process.cwd(), output)).split(path.sep).join('/');
  }
  return entries;
}

async function copyVendor() {
  for (const [from, to] of VENDOR_FILES) {
    const target = path.join(VENDOR_OUT, to);
    await mkdir(path.dirname(target), { recursive: true });
    await cp(path.join(NODE_MODULES, from), target, { recursive: true });
  }
}

async function main() {
  await rm(JS_OUT, { recursive: true, force: true });
  for (const dir of new Set([...VENDOR_FILES.map(([, to]) => to.split('/')[0]), 'bootstrap-icons'])) {
    await rm(path.join(VENDOR_OUT, dir), { recursive: true, force: true });
  }
  const entries = await buildWidgets();
  await copyVendor();
  const icons = await subsetIcons({ root: ROOT, nodeModules: NODE_MODULES, out: path.join(VENDOR_OUT, 'bootstrap-icons') });
  const manifest = { entries, sources_sha256: await sourcesSha256() };
  await writeFile(path.join(JS_OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, file] of Object.entries(entries)) console.log(`${name.padEnd(10)} static/js/${file}`);
  console.log(`icons      ${icons.length} glyphs in static/vendor/bootstrap-icons`);
}

await main();
