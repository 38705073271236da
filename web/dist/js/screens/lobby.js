// The lobby (the start page's online part): play the computer, quick
// pairing, the create-table dialog with its invite link, and the list of
// tables with filters and pages. Two players on one device stay in
// index.html (main.js). Each action that gets a table navigates to
// #/table/<id>.

import {ApiError} from '../api.js';
import {createTable, joinTable, leaveTable, listTables, pairingStatus, playComputer, quickPair} from '../lobby_api.js';
import {t} from '../strings.js';
import {el, timeChoices, timeLabel} from './lobby_dom.js';

/** @typedef {import('../lobby_api.js').Table} Table */
/** @typedef {{id: string, name: string, board: {rows: number}}} Variant */
/**
 * @typedef {{variants: Variant[], variantSelect: HTMLSelectElement,
 *            isPerson: () => boolean}} LobbyContext
 */

const PAGE_SIZE = 10;
const PAIRING_POLL_MS = 1500;

/** @param {string} tableId */
function openTable(tableId) {
  location.hash = `#/table/${encodeURIComponent(tableId)}`;
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof ApiError && error.status === 429) return t('tooFast');
  return t('lobbyError', {message: error instanceof Error ? error.message : String(error)});
}

/**
 * @param {HTMLElement} container
 * @param {LobbyContext} context
 * @returns {{close(): void, refresh(): Promise<void>}}
 */
export function mountLobby(container, context) {
  const {variants, variantSelect} = context;
  const variantName = (id) => (variants.find((v) => v.id === id) || {name: id}).name;
  const currentVariant = () => variants.find((v) => v.id === variantSelect.value) || variants[0];
  let closed = false;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pairingTimer = null;
  const error = el('p', {id: 'lobby-error', className: 'error', role: 'alert'});
  const fail = (e) => {
    error.textContent = describe(e);
  };

  // Play the computer.
  const level = el(
    'select',
    {id: 'computer-level'},
    ...['EASY', 'MEDIUM', 'HARD'].map((name) =>
      el('option', {value: `BOT_LEVEL_${name}`}, t(`level${name[0]}${name.slice(1).toLowerCase()}`)),
    ),
  );
  const colorChoices = [
    ['COLOR_WHITE', t('colorWhite')],
    ['COLOR_BLACK', t('colorBlack')],
    ['', t('colorRandom')],
  ].map(([value, label]) => {
    const input = el('input', {type: 'radio', name: 'computer-color', value, checked: value === ''});
    return el('label', {className: 'check'}, input, ' ', label);
  });
  const playButton = el('button', {id: 'play-computer', className: 'primary'}, t('playComputer'));
  playButton.addEventListener('click', async () => {
    error.textContent = '';
    playButton.disabled = true;
    const chosen = /** @type {HTMLInputElement | null} */ (container.querySelector('input[name="computer-color"]:checked'));
    try {
      const answer = await playComputer({
        variant: currentVariant().id,
        level: level.value,
        color: chosen && chosen.value ? chosen.value : 'COLOR_UNSPECIFIED',
      });
      openTable(answer.table.tableId);
    } catch (e) {
      fail(e);
    } finally {
      playButton.disabled = false;
    }
  });
  const computerCard = el(
    'section',
    {className: 'card', id: 'computer-card'},
    el('h3', {}, t('playComputerHeading')),
    el('label', {className: 'field'}, el('span', {}, t('level')), level),
    el('fieldset', {className: 'choices'}, el('legend', {}, t('yourColor')), ...colorChoices),
    el('div', {className: 'buttons'}, playButton),
  );

  // Quick pairing, with a waiting state.
  const pairButton = el('button', {id: 'quick-pair', className: 'primary'}, t('quickPair'));
  const cancelPair = el('button', {id: 'quick-pair-cancel'}, t('quickPairCancel'));
  const waiting = el('p', {id: 'quick-pair-waiting', className: 'waiting', role: 'status', hidden: true},
    el('span', {className: 'spinner', 'aria-hidden': 'true'}), ' ', t('quickPairWaiting'), ' ', cancelPair);
  let waitingTableId = '';
  const stopWaiting = () => {
    if (pairingTimer) clearTimeout(pairingTimer);
    pairingTimer = null;
    waitingTableId = '';
    waiting.hidden = true;
    pairButton.hidden = false;
  };
  const pollPairing = async () => {
    if (closed || !waitingTableId) return;
    try {
      const answer = await pairingStatus(waitingTableId);
      if (!waitingTableId) return;
      if (!answer.waiting) {
        stopWaiting();
        openTable(answer.table.tableId);
        return;
      }
    } catch (e) {
      stopWaiting();
      fail(e);
      return;
    }
    pairingTimer = setTimeout(pollPairing, PAIRING_POLL_MS);
  };
  pairButton.addEventListener('click', async () => {
    error.textContent = '';
    pairButton.disabled = true;
    try {
      const answer = await quickPair({variant: currentVariant().id});
      if (!answer.waiting) {
        openTable(answer.table.tableId);
        return;
      }
      waitingTableId = answer.table.tableId;
      pairButton.hidden = true;
      waiting.hidden = false;
      pairingTimer = setTimeout(pollPairing, PAIRING_POLL_MS);
    } catch (e) {
      fail(e);
    } finally {
      pairButton.disabled = false;
    }
  });
  cancelPair.addEventListener('click', async () => {
    const id = waitingTableId;
    stopWaiting();
    if (!id) return;
    try {
      await leaveTable(id);
    } catch (e) {
      fail(e);
    }
  });
  const createButton = el('button', {id: 'create-table'}, t('createTable'));
  const pairCard = el(
    'section',
    {className: 'card', id: 'pair-card'},
    el('h3', {}, t('quickPairHeading')),
    el('div', {className: 'buttons'}, pairButton, createButton),
    waiting,
  );

  // The create-table dialog.
  const dialog = buildCreateDialog(context, fail);
  createButton.addEventListener('click', () => dialog.open(currentVariant().id));
  // A table made there shows in the list at once.
  dialog.element.addEventListener('close', () => {
    if (!closed) reload();
  });

  // The tables: filters, list, pages.
  const filterVariant = el(
    'select',
    {id: 'filter-variant', 'aria-label': t('lobbyRuleSet')},
    el('option', {value: ''}, t('filterAllRuleSets')),
    ...variants.map((v) => el('option', {value: v.id}, v.name)),
  );
  const filterTime = el(
    'select',
    {id: 'filter-time', 'aria-label': t('filterTime')},
    el('option', {value: ''}, t('filterAnyTime')),
    ...['0s', '30s', '60s', '120s', '300s'].map((value) => el('option', {value}, timeLabel(value))),
  );
  const filterOpen = el('input', {type: 'checkbox', id: 'filter-open'});
  const refreshButton = el('button', {id: 'refresh-tables'}, t('refresh'));
  const previous = el('button', {id: 'tables-previous'}, t('previousPage'));
  const next = el('button', {id: 'tables-next'}, t('nextPage'));
  const rows = el('tbody', {});
  const empty = el('p', {id: 'tables-empty', className: 'muted', hidden: true}, t('noTables'));
  /** @type {string[]} */
  let pageTokens = [''];
  let nextToken = '';
  const passwordDialog = buildPasswordDialog(fail);

  const renderRow = (/** @type {Table} */ table) => {
    const seats = (table.seats || []).map((seat) =>
      seat.occupant ? seat.occupant.displayName : t('openSeat'),
    );
    const open = (table.seats || []).some((seat) => !seat.occupant);
    const tags = [];
    if (table.hasPassword) tags.push(el('span', {className: 'tag private'}, t('privateTable')));
    if (table.rated) tags.push(el('span', {className: 'tag'}, t('ratedTable')));
    const creator = (table.seats || []).find((s) => s.occupant);
    const name = creator && creator.occupant ? creator.occupant.displayName : '';
    const join = el('button', {className: 'join', 'aria-label': t('joinTableNamed', {name}), hidden: !open}, t('join'));
    join.addEventListener('click', async () => {
      error.textContent = '';
      if (table.hasPassword) {
        passwordDialog.open(table.tableId);
        return;
      }
      join.disabled = true;
      try {
        const answer = await joinTable(table.tableId, '');
        openTable(answer.table.tableId);
      } catch (e) {
        fail(e);
        join.disabled = false;
      }
    });
    return el(
      'tr',
      {dataset: {tableId: table.tableId, variant: table.variant}},
      el('td', {}, variantName(table.variant), ' ', ...tags),
      el('td', {}, ...seats.flatMap((name, i) => [...(i ? [' · '] : []), el('span', {className: 'seat'}, name)])),
      el('td', {}, timeLabel(table.timePerMove || '0s')),
      el('td', {}, t(`tableStatus.${table.status}`)),
      el('td', {}, join),
    );
  };

  const load = async () => {
    error.textContent = '';
    refreshButton.disabled = true;
    try {
      const page = await listTables({
        variant: filterVariant.value,
        timePerMove: filterTime.value,
        openSeatsOnly: filterOpen.checked,
        pageSize: PAGE_SIZE,
        pageToken: pageTokens[pageTokens.length - 1],
      });
      if (closed) return;
      rows.replaceChildren(...page.tables.map(renderRow));
      empty.hidden = page.tables.length > 0;
      nextToken = page.nextPageToken;
      next.disabled = !nextToken;
      previous.disabled = pageTokens.length <= 1;
      tablesSection.dataset.loaded = String(Date.now());
    } catch (e) {
      fail(e);
    } finally {
      refreshButton.disabled = false;
    }
  };
  const reload = () => {
    pageTokens = [''];
    return load();
  };
  for (const filter of [filterVariant, filterTime, filterOpen]) filter.addEventListener('change', reload);
  refreshButton.addEventListener('click', () => load());
  next.addEventListener('click', () => {
    if (!nextToken) return;
    pageTokens.push(nextToken);
    load();
  });
  previous.addEventListener('click', () => {
    if (pageTokens.length > 1) pageTokens.pop();
    load();
  });

  const tablesSection = el(
    'section',
    {className: 'card tables', id: 'tables'},
    el('h3', {}, t('tablesHeading')),
    el(
      'div',
      {className: 'filters'},
      filterVariant,
      el('label', {className: 'field inline'}, el('span', {}, t('filterTime')), filterTime),
      el('label', {className: 'check'}, filterOpen, ' ', t('filterOpenSeats')),
      refreshButton,
    ),
    el(
      'table',
      {className: 'table-list'},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, t('tableColumnRules')),
          el('th', {}, t('tableColumnPlayers')),
          el('th', {}, t('tableColumnTime')),
          el('th', {}, t('tableColumnStatus')),
          el('th', {}, ''),
        ),
      ),
      rows,
    ),
    empty,
    el('div', {className: 'buttons pager'}, previous, next),
  );

  container.replaceChildren(
    error,
    el('div', {className: 'lobby-grid'}, computerCard, pairCard),
    tablesSection,
    dialog.element,
    passwordDialog.element,
  );
  reload();

  return {
    refresh: reload,
    close() {
      closed = true;
      // Leaving the page while waiting leaves the queue.
      if (waitingTableId) leaveTable(waitingTableId).catch(() => {});
      stopWaiting();
      if (dialog.element.open) dialog.element.close();
      if (passwordDialog.element.open) passwordDialog.element.close();
    },
  };
}

/**
 * @param {LobbyContext} context
 * @param {(e: unknown) => void} fail
 */
function buildCreateDialog(context, fail) {
  const {variants} = context;
  const variant = el('select', {id: 'create-variant'}, ...variants.map((v) => el('option', {value: v.id}, v.name)));
  const time = el('select', {id: 'create-time'});
  const checkbox = (id, checked) => el('input', {type: 'checkbox', id, checked});
  const mandatory = checkbox('create-mandatory-capture', true);
  const showMoves = checkbox('create-show-moves', true);
  const alternate = checkbox('create-alternate', true);
  const fortyTotal = checkbox('create-forty-total', false);
  const absent = checkbox('create-computer-for-absent', false);
  const muted = checkbox('create-spectators-muted', false);
  const rated = checkbox('create-rated', false);
  const moveLimit = el('input', {type: 'number', id: 'create-move-limit', min: '0', max: '2000', value: '0', inputMode: 'numeric'});
  const password = el('input', {type: 'password', id: 'create-password', maxLength: 64, autocomplete: 'new-password'});
  const ratedHelp = el('span', {className: 'muted', id: 'create-rated-help'}, t('optionRatedGuest'));
  const englishOnly = [
    el('label', {className: 'check'}, mandatory, ' ', t('optionMandatoryCapture')),
    el('label', {className: 'check'}, fortyTotal, ' ', t('optionFortyTotal')),
  ];
  const message = el('p', {className: 'error', role: 'alert', id: 'create-error'});
  const createButton = el('button', {type: 'submit', className: 'primary', id: 'create-submit'}, t('dialogCreate'));
  const cancel = el('button', {type: 'button', id: 'create-cancel'}, t('dialogCancel'));

  const form = el(
    'form',
    {method: 'dialog', id: 'create-form'},
    el('h3', {}, t('dialogTitle')),
    el('label', {className: 'field'}, el('span', {}, t('lobbyRuleSet')), variant),
    el('label', {className: 'field'}, el('span', {}, t('filterTime')), time),
    el(
      'fieldset',
      {className: 'options'},
      ...englishOnly,
      el('label', {className: 'check'}, showMoves, ' ', t('optionShowMoves')),
      el('label', {className: 'check'}, alternate, ' ', t('optionAlternate')),
      el('label', {className: 'check'}, absent, ' ', t('optionComputerForAbsent')),
      el('label', {className: 'check'}, muted, ' ', t('optionSpectatorsMuted')),
      el('label', {className: 'field'}, el('span', {}, t('optionMoveLimit')), moveLimit),
      el('label', {className: 'check'}, rated, ' ', t('optionRated'), ' ', ratedHelp),
    ),
    el('label', {className: 'field'}, el('span', {}, t('optionPassword')), password),
    message,
    el('div', {className: 'buttons'}, createButton, cancel),
  );

  const link = el('input', {type: 'text', id: 'invite-link', readOnly: true, 'aria-label': t('inviteLink')});
  const copy = el('button', {type: 'button', id: 'copy-invite'}, t('copyLink'));
  const open = el('button', {type: 'button', className: 'primary', id: 'open-table'}, t('openTable'));
  const created = el(
    'div',
    {id: 'create-result', hidden: true},
    el('h3', {}, t('dialogTitle')),
    el('p', {}, t('tableCreated')),
    el('div', {className: 'invite'}, link, copy),
    el('div', {className: 'buttons'}, open),
  );
  const element = el('dialog', {id: 'create-dialog', 'aria-label': t('dialogTitle')}, form, created);
  let createdTableId = '';

  const fitVariant = () => {
    const chosen = variants.find((v) => v.id === variant.value) || variants[0];
    const {choices, byDefault} = timeChoices(chosen);
    time.replaceChildren(...choices.map((value) => el('option', {value, selected: value === byDefault}, timeLabel(value))));
    // Only English switches captures off or counts the 40 moves in total (seed 003).
    for (const label of englishOnly) label.hidden = chosen.id !== 'english';
  };
  variant.addEventListener('change', fitVariant);
  cancel.addEventListener('click', () => element.close());
  copy.addEventListener('click', async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      document.execCommand('copy');
    }
    copy.textContent = t('copied');
  });
  open.addEventListener('click', () => {
    element.close();
    openTable(createdTableId);
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    createButton.disabled = true;
    const english = variant.value === 'english';
    /** @type {import('../lobby_api.js').VariantOptions} */
    const options = {
      showPossibleMoves: showMoves.checked,
      alternateFirstPlayer: alternate.checked,
      computerPlaysForAbsent: absent.checked,
      spectatorsMuted: muted.checked,
      moveLimit: Math.max(0, Math.floor(Number(moveLimit.value) || 0)),
    };
    if (english) {
      options.mandatoryCapture = mandatory.checked;
      options.fortyMoveRuleInTotal = fortyTotal.checked;
    }
    try {
      const answer = await createTable({
        variant: variant.value,
        options,
        timePerMove: time.value,
        rated: rated.checked,
        password: password.value,
      });
      password.value = '';
      createdTableId = answer.table.tableId;
      link.value = `${location.origin}${answer.invitePath}`;
      form.hidden = true;
      created.hidden = false;
      copy.textContent = t('copyLink');
      open.focus();
    } catch (e) {
      message.textContent = describe(e);
    } finally {
      createButton.disabled = false;
    }
  });

  return {
    element,
    /** @param {string} variantId */
    open(variantId) {
      try {
        variant.value = variantId;
        fitVariant();
        const person = context.isPerson();
        rated.disabled = !person;
        rated.checked = rated.checked && person;
        ratedHelp.hidden = person;
        form.hidden = false;
        created.hidden = true;
        message.textContent = '';
        element.showModal();
      } catch (e) {
        fail(e);
      }
    },
  };
}

/** @param {(e: unknown) => void} fail */
function buildPasswordDialog(fail) {
  const input = el('input', {type: 'password', id: 'join-password', maxLength: 64, autocomplete: 'off', required: true});
  const message = el('p', {className: 'error', role: 'alert', id: 'join-error'});
  const submit = el('button', {type: 'submit', className: 'primary', id: 'join-submit'}, t('joinSubmit'));
  const cancel = el('button', {type: 'button', id: 'join-cancel'}, t('dialogCancel'));
  const form = el(
    'form',
    {method: 'dialog'},
    el('p', {}, t('passwordPrompt')),
    el('label', {className: 'field'}, el('span', {}, t('passwordLabel')), input),
    message,
    el('div', {className: 'buttons'}, submit, cancel),
  );
  const element = el('dialog', {id: 'password-dialog', 'aria-label': t('passwordLabel')}, form);
  let tableId = '';
  cancel.addEventListener('click', () => element.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    submit.disabled = true;
    try {
      const answer = await joinTable(tableId, input.value);
      input.value = '';
      element.close();
      openTable(answer.table.tableId);
    } catch (e) {
      // A wrong password stays here, with the reason; nothing else changes.
      if (e instanceof ApiError && e.code === 'PERMISSION_DENIED') message.textContent = t('wrongPassword');
      else if (e instanceof ApiError && e.code === 'RESOURCE_EXHAUSTED') message.textContent = t('tooManyGuesses');
      else if (e instanceof ApiError && e.code === 'FAILED_PRECONDITION') message.textContent = t('tableFull');
      else if (e instanceof ApiError && e.code === 'NOT_FOUND') message.textContent = t('tableGone');
      else message.textContent = describe(e);
      input.select();
    } finally {
      submit.disabled = false;
    }
  });
  return {
    element,
    /** @param {string} id */
    open(id) {
      try {
        tableId = id;
        input.value = '';
        message.textContent = '';
        element.showModal();
        input.focus();
      } catch (e) {
        fail(e);
      }
    },
  };
}
