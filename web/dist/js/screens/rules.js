// The rules and help page of a rule set (#/rules/<variant>), as seeds 001
// and 003 show: the rules, how to play on this site, tips and questions and
// answers; and the list of rule sets (#/rules). Texts only: no server call,
// so the page also reads offline.

import {lessonFor} from '../lessons.js';
import {has, t, tList} from '../strings.js';

/** @param {string} tag @param {Record<string, string>} attrs @param {(Node|string)[]} children */
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** @param {string} id */
function variantName(id) {
  return has(`learn.variants.${id}`) ? t(`learn.variants.${id}`) : id;
}

/** The rule sets with a page, the seeds' first. */
function pageIds() {
  return Object.keys(VARIANT_ORDER).filter((id) => has(`learn.pages.${id}.intro`));
}

// The order of the list (the seeds' rule sets first).
const VARIANT_ORDER = {
  international: 1, english: 2, 'tutorial-8x8': 3, canadian: 4, russian: 5, brazilian: 6, pool: 7,
  spanish: 8, czech: 9, italian: 10, thai: 11, frisian: 12, turkish: 13, antidraughts: 14, breakthrough: 15,
};

/** @param {string} heading @param {string[]} items @param {string} id */
function listSection(heading, items, id) {
  return el('section', {id}, [el('h3', {}, [heading]), el('ul', {}, items.map((item) => el('li', {}, [item])))]);
}

/** @param {HTMLElement} container */
function showIndex(container) {
  container.replaceChildren(
    el('section', {class: 'rules', id: 'rules-index'}, [
      el('h2', {}, [t('learn.index.rulesHeading')]),
      el('p', {}, [t('learn.index.rulesIntro')]),
      el('ul', {class: 'learn-list'}, pageIds().map((id) => el('li', {}, [el('a', {href: `#/rules/${id}`}, [t('learn.index.readRules', {name: variantName(id)})])]))),
    ]),
  );
  return {close() {}};
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export function mount(container, match) {
  const id = match[1] ? decodeURIComponent(match[1]) : '';
  if (!id) return showIndex(container);
  if (!has(`learn.pages.${id}.intro`)) {
    container.replaceChildren(
      el('section', {class: 'rules'}, [
        el('h2', {}, [t('learn.tutorial.unknown')]),
        el('p', {}, [el('a', {href: '#/rules'}, [t('learn.rules.allRules')])]),
      ]),
    );
    return {close() {}};
  }
  const name = variantName(id);
  const faq = tList(`learn.pages.${id}.faq`);
  const qa = el('dl', {class: 'faq'});
  for (let i = 0; i + 1 < faq.length; i += 2) qa.append(el('dt', {}, [faq[i]]), el('dd', {}, [faq[i + 1]]));
  const links = [el('a', {class: 'button primary', href: '#/', id: 'rules-play'}, [t('learn.rules.playLink')])];
  if (lessonFor(id)) links.unshift(el('a', {class: 'button', href: `#/learn/${id}`, id: 'rules-tutorial'}, [t('learn.rules.tutorialLink')]));
  const tips = [...tList(`learn.pages.${id}.tips`), ...tList('learn.pages.common.tips')];
  container.replaceChildren(
    el('article', {class: 'rules', id: 'rules-page', 'data-variant': id}, [
      el('h2', {}, [t('learn.rules.heading', {name})]),
      el('p', {class: 'intro'}, [t(`learn.pages.${id}.intro`)]),
      el('p', {class: 'buttons'}, links),
      listSection(t('learn.rules.rulesHeading'), tList(`learn.pages.${id}.rules`), 'rules-rules'),
      listSection(t('learn.rules.howHeading'), tList('learn.pages.common.how'), 'rules-how'),
      listSection(t('learn.rules.tipsHeading'), tips, 'rules-tips'),
      el('section', {id: 'rules-faq'}, [el('h3', {}, [t('learn.rules.faqHeading')]), qa]),
      el('p', {}, [el('a', {href: '#/rules'}, [t('learn.rules.allRules')])]),
    ]),
  );
  // "Play with these rules" opens the start page with this rule set chosen.
  container.querySelector('#rules-play').addEventListener('click', () => {
    const select = /** @type {HTMLSelectElement|null} */ (document.getElementById('variant'));
    if (select && [...select.options].some((o) => o.value === id)) {
      select.value = id;
      select.dispatchEvent(new Event('change'));
    }
  });
  return {close() {}};
}
