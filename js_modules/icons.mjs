// The icon font, cut down to the glyphs the console uses (issue 24: the whole Bootstrap Icons font is 131 KB
// for a few dozen icons on any page). Called by build.mjs.
//
// The glyphs are found by name: every `bi-<name>` written in the console's sources (Python pages, widgets,
// shell scripts, stylesheets) that Bootstrap Icons defines. Pages only ever write icon names as whole literals
// (a test keeps it so: tests/test_icons.py checks every name in the sources has a rule in the output). The
// cut is made by subset-font (HarfBuzz's subsetter, compiled to WebAssembly) into WOFF2 only, which every
// browser the console supports reads.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import subsetFont from 'subset-font';

const SOURCE_DIRS = ['app', 'components', 'js_modules/src', 'static/shell', 'static/css'];
const SOURCE_FILE = /\.(py|jsx?|mjs|css|html)$/;
const ICON_NAME = /\bbi-([a-z0-9]+(?:-[a-z0-9]+)*)/g;

async function sourceFiles(dir) {
  const found = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '__pycache__') {
      found.push(...(await sourceFiles(full)));
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
      found.push(full);
    }
  }
  return found;
}

export async function usedIcons(root, codepoints) {
  const used = new Set();
  for (const dir of SOURCE_DIRS) {
    for (const file of await sourceFiles(path.join(root, dir))) {
      for (const match of (await readFile(file, 'utf8')).matchAll(ICON_NAME)) {
        if (codepoints[match[1]] !== undefined) used.add(match[1]);
      }
    }
  }
  return [...used].sort();
}

// Writes <out>/bootstrap-icons.min.css and <out>/fonts/bootstrap-icons.woff2; answers the icons kept.
export async function subsetIcons({ root, nodeModules, out }) {
  const fontDir = path.join(nodeModules, 'bootstrap-icons', 'font');
  const codepoints = JSON.parse(await readFile(path.join(fontDir, 'bootstrap-icons.json'), 'utf8'));
  const names = await usedIcons(root, codepoints);
  const text = names.map((name) => String.fromCodePoint(codepoints[name])).join('');
  const font = await subsetFont(await readFile(path.join(fontDir, 'fonts', 'bootstrap-icons.woff2')), text,
    { targetFormat: 'woff2', noHinting: true, noLayoutClosure: true });
  const version = createHash('sha256').update(font).digest('hex').slice(0, 16);
  const rules = names.map((name) => `.bi-${name}::before{content:"\\${codepoints[name].toString(16)}"}`);
  const css = [
    '/*! Bootstrap Icons v1.13.2 (https://icons.getbootstrap.com/), MIT licence; only the glyphs the console uses */',
    `@font-face{font-display:block;font-family:"bootstrap-icons";src:url("./fonts/bootstrap-icons.woff2?${version}") format("woff2")}`,
    '.bi::before,[class^="bi-"]::before,[class*=" bi-"]::before{display:inline-block;font-family:bootstrap-icons!important;'
      + 'font-style:normal;font-weight:normal!important;font-variant:normal;text-transform:none;line-height:1;'
      + 'vertical-align:-.125em;-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale}',
    ...rules,
  ].join('\n');
  await mkdir(path.join(out, 'fonts'), { recursive: true });
  await writeFile(path.join(out, 'fonts', 'bootstrap-icons.woff2'), font);
  await writeFile(path.join(out, 'bootstrap-icons.min.css'), `${css}\n`);
  return names;
}
