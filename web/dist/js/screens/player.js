// #/player/<id>: a player's rating in each rule set this month, the rating
// history as a chart (SVG drawn here), and the latest games, each linking to
// its replay.

import {getPlayer, h, seatName, useHistoryStyles, variantsList} from '../history_api.js';
import {t} from '../strings.js';

const SVG = 'http://www.w3.org/2000/svg';
const CHART = {width: 640, height: 240, left: 48, right: 12, top: 12, bottom: 28};
const LINE_COLORS = ['#1f6f8b', '#b5531a', '#4b7d2a', '#7a3e9d', '#a8323e', '#2f4f9e'];

/** @param {string} name @param {Record<string, string|number>} attrs @param {string} [text] */
function svg(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// One polyline per rule set: the rating after each rated game, in order.
/** @param {any[]} points @param {(id: string) => string} variantName */
function chart(points, variantName) {
  const byVariant = new Map();
  for (const p of points) {
    if (!byVariant.has(p.variant)) byVariant.set(p.variant, []);
    byVariant.get(p.variant).push(p);
  }
  const elos = points.flatMap((p) => [p.eloBefore, p.eloAfter]);
  let low = Math.min(...elos);
  let high = Math.max(...elos);
  if (high - low < 40) {
    low -= 20;
    high += 20;
  }
  const steps = Math.max(1, Math.max(...[...byVariant.values()].map((list) => list.length)));
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const x = (i) => CHART.left + (plotW * i) / steps;
  const y = (elo) => CHART.top + plotH - (plotH * (elo - low)) / (high - low);
  const labels = [...byVariant.keys()].map((v) => variantName(v)).join(', ');
  const root = svg('svg', {
    class: 'rating-chart',
    id: 'rating-chart',
    viewBox: `0 0 ${CHART.width} ${CHART.height}`,
    role: 'img',
    'aria-label': t('history.chartLabel', {variant: labels}),
  });
  for (const elo of [low, Math.round((low + high) / 2), high]) {
    root.append(svg('line', {class: 'grid', x1: CHART.left, x2: CHART.width - CHART.right, y1: y(elo), y2: y(elo)}));
    root.append(svg('text', {class: 'axis', x: CHART.left - 6, y: y(elo) + 5, 'text-anchor': 'end'}, String(Math.round(elo))));
  }
  let index = 0;
  for (const [variant, list] of byVariant) {
    const color = LINE_COLORS[index++ % LINE_COLORS.length];
    // Each game's line starts from its rating before that game (the month's
    // first game starts from the initial rating).
    const coords = [`${x(0)},${y(list[0].eloBefore)}`, ...list.map((p, i) => `${x(i + 1)},${y(p.eloAfter)}`)];
    root.append(svg('polyline', {class: 'line', 'data-variant': variant, points: coords.join(' '), stroke: color}));
    list.forEach((p, i) => {
      const dot = svg('circle', {class: 'point', cx: x(i + 1), cy: y(p.eloAfter), r: 5, fill: color, 'data-game': p.gameId, 'data-elo': p.eloAfter});
      dot.append(svg('title', {}, `${variantName(variant)} ${p.month}: ${p.eloBefore} → ${p.eloAfter}`));
      root.append(dot);
    });
    root.append(svg('text', {class: 'legend', x: CHART.left + 8, y: CHART.top + 16 * index, fill: color}, variantName(variant)));
  }
  return root;
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export async function mount(container, match) {
  useHistoryStyles();
  const playerId = match[1];
  const heading = h('h2', {text: t('history.loading')});
  const status = h('p', {class: 'error', role: 'alert'});
  const root = h('section', {class: 'history-screen', id: 'player-view', 'data-player': playerId}, [heading, status]);
  container.replaceChildren(root);
  let variants = [];
  let page;
  try {
    [variants, page] = await Promise.all([variantsList(), getPlayer(playerId)]);
  } catch (e) {
    status.textContent = t('history.error', {message: e.message});
    return {close() {}};
  }
  const variantName = (id) => (variants.find((v) => v.id === id) || {name: id}).name;
  heading.textContent = t('history.playerTitle', {name: page.displayName || t('history.unknownPlayer')});

  const ratingRows = (page.ratings || []).map((line) =>
    h('tr', {'data-variant': line.variant}, [
      h('td', {}, [h('a', {href: `#/leaderboard/${line.variant}`, text: variantName(line.variant)})]),
      h('td', {class: 'elo', text: line.rating.elo}),
      h('td', {text: line.rank || '–'}),
      h('td', {text: line.rating.games}),
      h('td', {text: `${line.rating.wins} / ${line.rating.draws} / ${line.rating.losses}`}),
    ]),
  );
  const ratings =
    ratingRows.length === 0
      ? h('p', {text: t('history.noRatings')})
      : h('table', {class: 'history-table', id: 'player-ratings'}, [
          h('thead', {}, [
            h('tr', {}, [
              h('th', {scope: 'col', text: t('ruleSet')}),
              h('th', {scope: 'col', text: t('history.rating')}),
              h('th', {scope: 'col', text: t('history.rank')}),
              h('th', {scope: 'col', text: t('history.games')}),
              h('th', {scope: 'col', text: t('history.wdl')}),
            ]),
          ]),
          h('tbody', {}, ratingRows),
        ]);

  const points = page.history || [];
  const history = points.length === 0 ? h('p', {text: t('history.noChart')}) : chart(points, variantName);

  const outcomes = {OUTCOME_WIN: 'history.outcomeWin', OUTCOME_LOSS: 'history.outcomeLoss', OUTCOME_DRAW: 'history.outcomeDraw'};
  const gameRows = (page.recentGames || []).map((game) => {
    const delta = game.eloAfter - game.eloBefore;
    const opponent = game.opponent || {};
    const opponentCell =
      opponent.kind === 'SEAT_KIND_PERSON' && opponent.playerId
        ? h('a', {href: `#/player/${encodeURIComponent(opponent.playerId)}`, text: seatName(opponent, t)})
        : seatName(opponent, t);
    return h('tr', {'data-game': game.gameId}, [
      h('td', {text: new Date(game.finishedAt).toLocaleDateString(document.documentElement.lang || 'en')}),
      h('td', {text: variantName(game.variant)}),
      h('td', {}, [opponentCell]),
      h('td', {text: t(outcomes[game.outcome] || 'history.resultUnknown')}),
      h('td', {class: 'elo-change', text: game.eloChanged ? `${game.eloAfter} (${delta >= 0 ? '+' : ''}${delta})` : t('history.unrated')}),
      h('td', {}, [h('a', {href: `#/replay/${encodeURIComponent(game.gameId)}`, text: t('history.replayLink')})]),
    ]);
  });
  const recent =
    gameRows.length === 0
      ? h('p', {text: t('history.noRatings')})
      : h('table', {class: 'history-table', id: 'player-games'}, [
          h('thead', {}, [
            h('tr', {}, [
              h('th', {scope: 'col', text: t('history.date')}),
              h('th', {scope: 'col', text: t('ruleSet')}),
              h('th', {scope: 'col', text: t('history.opponent')}),
              h('th', {scope: 'col', text: t('history.outcome')}),
              h('th', {scope: 'col', text: t('history.change')}),
              h('th', {scope: 'col', text: t('history.replayLink')}),
            ]),
          ]),
          h('tbody', {}, gameRows),
        ]);

  root.append(
    h('h3', {text: t('history.ratingsHeading')}),
    ratings,
    h('h3', {text: t('history.chartHeading')}),
    history,
    h('h3', {text: t('history.recentHeading')}),
    recent,
  );
  root.dataset.ready = 'true';
  return {close() {}};
}
