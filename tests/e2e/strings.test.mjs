// The translation tables: every web/dist/js/strings/<area>.js (whatever
// areas exist) exports `en` and `fr` with the same keys, nested objects and
// lists included, every text non-empty, the same {placeholders} in both;
// strings.js merges every area file; the lessons' and rules pages' keys exist.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {repoRoot} from './lib/servers.mjs';

const stringsDir = path.join(repoRoot, 'web/dist/js/strings');
const areaFiles = fs.readdirSync(stringsDir).filter((f) => f.endsWith('.js')).sort();

// Every leaf as [path, text]; lists and objects recurse.
function leaves(node, prefix = '') {
  if (typeof node === 'string') return [[prefix, node]];
  assert.ok(node && typeof node === 'object', `${prefix || '(root)'} is a text, a list or an object`);
  return Object.entries(node).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('there are area files to check', () => {
  assert.ok(areaFiles.includes('core.js') && areaFiles.includes('learn.js'), areaFiles.join(' '));
});

for (const file of areaFiles) {
  test(`strings/${file}: en and fr have the same keys, texts and placeholders`, async () => {
    const area = await import(pathToFileURL(path.join(stringsDir, file)).href);
    assert.ok(area.en && area.fr, `${file} exports en and fr`);
    const en = new Map(leaves(area.en));
    const fr = new Map(leaves(area.fr));
    assert.deepEqual([...fr.keys()].filter((k) => !en.has(k)), [], `${file}: keys only in fr`);
    assert.deepEqual([...en.keys()].filter((k) => !fr.has(k)), [], `${file}: keys missing in fr`);
    for (const [key, text] of en) {
      assert.ok(text.trim() !== '', `${file}: en ${key} is empty`);
      assert.ok(fr.get(key).trim() !== '', `${file}: fr ${key} is empty`);
      assert.deepEqual(placeholders(fr.get(key)), placeholders(text), `${file}: placeholders of ${key}`);
    }
  });
}

test('strings.js merges every area file, and no two areas define the same top-level key', async () => {
  const source = fs.readFileSync(path.join(repoRoot, 'web/dist/js/strings.js'), 'utf8');
  const seen = new Map();
  for (const file of areaFiles) {
    assert.match(source, new RegExp(`from '\\./strings/${file.replace('.', '\\.')}'`), `strings.js imports strings/${file}`);
    const area = await import(pathToFileURL(path.join(stringsDir, file)).href);
    for (const key of Object.keys(area.en)) {
      assert.ok(!seen.has(key), `"${key}" is defined by both ${seen.get(key)} and ${file}`);
      seen.set(key, file);
    }
  }
});

test('t() follows the chosen language and falls back to English, tList reads lists', async () => {
  const strings = await import(pathToFileURL(path.join(repoRoot, 'web/dist/js/strings.js')).href);
  assert.equal(strings.setLanguage('fr-CA'), 'fr');
  assert.equal(strings.t('resign'), 'Abandonner');
  assert.equal(strings.t('toMove', {color: 'Blancs'}), 'Aux Blancs de jouer');
  assert.ok(strings.tList('learn.pages.english.rules').length >= 8);
  assert.equal(strings.setLanguage('de'), 'en');
  assert.equal(strings.t('resign'), 'Resign');
  assert.equal(strings.pickLanguage(undefined, 'fr-FR'), 'fr');
  assert.equal(strings.pickLanguage('en', 'fr-FR'), 'en');
});

test('every lesson step and rules page has its texts in both languages', async () => {
  const {lessons} = await import(pathToFileURL(path.join(repoRoot, 'web/dist/js/lessons.js')).href);
  const learn = await import(pathToFileURL(path.join(stringsDir, 'learn.js')).href);
  for (const table of [learn.en, learn.fr]) {
    for (const lesson of Object.values(lessons)) {
      for (const step of lesson.steps) {
        const texts = table.learn.lessons[lesson.id]?.[step.id];
        assert.ok(texts && texts.title && texts.task && texts.done && texts.text.length > 0, `${lesson.id}.${step.id}`);
        for (const why of [...Object.values(step.wrong || {}), step.blocked].filter(Boolean)) {
          assert.ok(table.learn.wrong[why], `learn.wrong.${why}`);
        }
      }
    }
    for (const [id, page] of Object.entries(table.learn.pages)) {
      if (id === 'common') continue;
      assert.ok(page.intro && page.rules.length > 0, `page ${id}`);
      assert.equal(page.faq.length % 2, 0, `page ${id}: questions and answers come in pairs`);
      assert.ok(table.learn.variants[id], `the name of ${id}`);
    }
  }
});
