// #/leaderboard[/<variant>[/<YYYY-MM>]]: a rule set's ratings for a month,
// 100 lines a page, the caller's own line highlighted (and shown below the
// table when it is on another page), each player linking to their page.

import {getLeaderboard, h, useHistoryStyles, variantsList} from '../history_api.js';
import {t} from '../strings.js';

const MONTHS_OFFERED = 12;

/** @param {string} month "YYYY-MM" @returns {string} the month before */
function monthBefore(month) {
  let [year, number] = month.split('-').map(Number);
  if (--number === 0) {
    number = 12;
    year -= 1;
  }
  return `${String(year).padStart(4, '0')}-${String(number).padStart(2, '0')}`;
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export async function mount(container, match) {
  useHistoryStyles();
  let closed = false;
  const variants = await variantsList();
  let variant = match[1] && variants.some((v) => v.id === match[1]) ? match[1] : variants[0].id;
  let month = match[2] || '';
  /** @type {string[]} tokens of the pages before the one shown */
  let tokens = [];
  let token = '';

  const heading = h('h2', {text: t('history.leaderboard')});
  const variantSelect = h('select', {id: 'leaderboard-variant'}, variants.map((v) => h('option', {value: v.id, text: v.name})));
  variantSelect.value = variant;
  const monthSelect = h('select', {id: 'leaderboard-month'});
  const caption = h('p', {class: 'history-caption', id: 'leaderboard-caption'});
  const table = h('table', {class: 'history-table', id: 'leaderboard-table'});
  const own = h('p', {class: 'own-line', id: 'leaderboard-own'});
  const status = h('p', {class: 'error', role: 'alert'});
  const previous = h('button', {id: 'leaderboard-previous', text: t('history.previousPage')});
  const next = h('button', {id: 'leaderboard-next', text: t('history.nextPage')});
  const root = h('section', {class: 'history-screen', id: 'leaderboard-view'}, [
    heading,
    h('div', {class: 'pickers'}, [
      h('label', {class: 'field'}, [h('span', {text: t('ruleSet')}), variantSelect]),
      h('label', {class: 'field'}, [h('span', {text: t('history.month')}), monthSelect]),
    ]),
    caption,
    table,
    h('div', {class: 'buttons'}, [previous, next]),
    own,
    status,
  ]);
  container.replaceChildren(root);

  function address() {
    return `#/leaderboard/${variant}${month ? `/${month}` : ''}`;
  }

  /** @param {any} page */
  function fillMonths(page) {
    const months = [];
    let m = page.currentMonth;
    for (let i = 0; i < MONTHS_OFFERED; i++, m = monthBefore(m)) months.push(m);
    if (!months.includes(page.month)) months.push(page.month);
    monthSelect.replaceChildren(
      ...months.map((value) =>
        h('option', {value, text: value === page.currentMonth ? t('history.currentMonth', {month: value}) : value}),
      ),
    );
    monthSelect.value = page.month;
  }

  /** @param {any} page */
  function render(page) {
    const name = (variants.find((v) => v.id === variant) || {name: variant}).name;
    heading.textContent = t('history.leaderboardOf', {variant: name});
    fillMonths(page);
    root.dataset.month = page.month;
    root.dataset.variant = page.variant;
    caption.textContent = page.final ? t('history.finalTable', {month: page.month}) : t('history.liveTable', {month: page.month});
    const head = h('tr', {}, [
      h('th', {scope: 'col', text: t('history.rank')}),
      h('th', {scope: 'col', text: t('history.player')}),
      h('th', {scope: 'col', text: t('history.rating')}),
      h('th', {scope: 'col', text: t('history.games')}),
      h('th', {scope: 'col', text: t('history.wdl')}),
    ]);
    const rows = (page.entries || []).map((entry) => {
      const r = entry.rating || {};
      const mine = page.ownPlayerId && r.playerId === page.ownPlayerId;
      const link = h('a', {href: `#/player/${encodeURIComponent(r.playerId)}`, text: r.displayName || r.playerId});
      return h('tr', {class: mine ? 'own' : '', 'data-player': r.playerId, 'aria-current': mine ? 'true' : undefined}, [
        h('td', {text: entry.rank}),
        h('td', {}, mine ? [link, ` (${t('history.you')})`] : [link]),
        h('td', {class: 'elo', text: r.elo}),
        h('td', {text: r.games}),
        h('td', {text: `${r.wins} / ${r.draws} / ${r.losses}`}),
      ]);
    });
    if (rows.length === 0) rows.push(h('tr', {}, [h('td', {colspan: 5, text: t('history.emptyBoard')})]));
    table.replaceChildren(h('thead', {}, [head]), h('tbody', {}, rows));
    if (page.own && page.own.rating) {
      own.textContent = t('history.yourRank', {rank: page.own.rank, elo: page.own.rating.elo});
      own.hidden = false;
    } else if (page.ownIsAccount) {
      own.textContent = t('history.notRanked');
      own.hidden = false;
    } else {
      own.hidden = true;
    }
    previous.hidden = tokens.length === 0;
    next.hidden = !page.nextPageToken;
    next.dataset.token = page.nextPageToken || '';
  }

  async function load() {
    status.textContent = '';
    caption.textContent = t('history.loading');
    try {
      const page = await getLeaderboard(variant, month, token);
      if (!closed) render(page);
    } catch (e) {
      if (!closed) status.textContent = t('history.error', {message: e.message});
    }
  }

  variantSelect.addEventListener('change', () => {
    variant = variantSelect.value;
    tokens = [];
    token = '';
    history.replaceState(null, '', address());
    load();
  });
  monthSelect.addEventListener('change', () => {
    month = monthSelect.value;
    tokens = [];
    token = '';
    history.replaceState(null, '', address());
    load();
  });
  next.addEventListener('click', () => {
    tokens.push(token);
    token = next.dataset.token || '';
    load();
  });
  previous.addEventListener('click', () => {
    token = tokens.pop() || '';
    load();
  });
  await load();
  return {
    close() {
      closed = true;
    },
  };
}
