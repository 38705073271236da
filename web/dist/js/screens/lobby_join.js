// #/join/<code>: an invite link opened in the browser (the gateway sends
// /join/<code> here). Joins the table, then shows it at #/table/<id>.

import {ApiError} from '../api.js';
import {joinByInvite} from '../lobby_api.js';
import {t} from '../strings.js';
import {el} from './lobby_dom.js';

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export function mount(container, match) {
  const code = decodeURIComponent(match[1]);
  const status = el('p', {id: 'join-status', role: 'status'}, t('joiningByLink'));
  const back = el('a', {href: '#/', id: 'join-back', hidden: true}, t('backToLobby'));
  container.replaceChildren(el('section', {className: 'card join-link'}, el('h2', {}, t('lobbyHeading')), status, back));
  let closed = false;
  joinByInvite(code)
    .then((answer) => {
      if (closed) return;
      // Replace, so Back does not join again.
      location.replace(`#/table/${encodeURIComponent(answer.table.tableId)}`);
    })
    .catch((e) => {
      if (closed) return;
      status.setAttribute('role', 'alert');
      status.className = 'error';
      if (e instanceof ApiError && e.code === 'NOT_FOUND') status.textContent = t('inviteUnknown');
      else if (e instanceof ApiError && e.code === 'FAILED_PRECONDITION') status.textContent = t('tableFull');
      else status.textContent = t('lobbyError', {message: e.message});
      back.hidden = false;
    });
  return {
    close() {
      closed = true;
    },
  };
}
