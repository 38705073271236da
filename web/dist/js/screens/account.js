// #/account: a guest registers or logs in; a logged-in player logs out,
// changes the password or deletes the account (after a confirmation). Each
// refusal gets a sentence of its own (name taken, wrong password, too many
// attempts, accounts off on this server).

import {ApiError} from '../api.js';
import {changePassword, currentSession, deleteAccount, isPerson, login, logout, register} from '../account_api.js';
import {h, useHistoryStyles} from '../history_api.js';
import {t} from '../strings.js';

/** @typedef {import('../account_api.js').SessionInfo} SessionInfo */
/** @typedef {'register'|'login'|'password'|'delete'|'logout'} Action */

// The sentence for a refused request; `action` tells a wrong login from a wrong current password.
/** @param {unknown} e @param {Action} action @returns {string} */
export function accountErrorText(e, action) {
  if (!(e instanceof ApiError)) return t('account.error.other', {message: String(e)});
  if (e.status === 503) return t('account.error.unavailable');
  if (e.status === 429) {
    const seconds = /retry in (\d+) s/.exec(e.message);
    return seconds ? t('account.error.tooMany', {minutes: Math.max(1, Math.ceil(Number(seconds[1]) / 60))}) : t('account.error.tooManyNoTime');
  }
  if (e.code === 'ALREADY_EXISTS') return t('account.error.nameTaken');
  if (e.code === 'FAILED_PRECONDITION') return t('account.error.alreadyLoggedIn');
  if (e.status === 401) return action === 'login' ? t('account.error.wrongPassword') : t('account.error.notLoggedIn');
  if (e.status === 403 && (action === 'password' || action === 'delete')) return t('account.error.wrongCurrentPassword');
  if (e.status === 400) return t('account.error.badInput', {message: e.message});
  return t('account.error.other', {message: e.message});
}

/**
 * A labelled input.
 * @param {string} id @param {string} label @param {string} type @param {string} autocomplete @param {string} [help]
 */
function field(id, label, type, autocomplete, help) {
  const input = /** @type {HTMLInputElement} */ (h('input', {id, name: id, type, autocomplete, required: true}));
  if (help) input.setAttribute('aria-describedby', `${id}-help`);
  const children = [h('span', {text: label}), input];
  if (help) children.push(h('small', {id: `${id}-help`, class: 'muted', text: help}));
  return {input, label: h('label', {class: 'field'}, children)};
}

function useAccountStyles() {
  if (document.querySelector('link[data-account-css]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = 'account.css';
  link.dataset.accountCss = 'true';
  document.head.append(link);
}

/** @param {HTMLElement} container @param {RegExpExecArray} _match */
export async function mount(container, _match) {
  useHistoryStyles();
  useAccountStyles();
  let closed = false;
  const status = h('p', {id: 'account-status', role: 'status'});
  const error = h('p', {id: 'account-error', class: 'error', role: 'alert'});
  const body = h('div', {id: 'account-body'});
  const root = h('section', {class: 'history-screen account-screen', id: 'account-view'}, [
    h('h2', {text: t('account.title')}),
    status,
    error,
    body,
  ]);
  container.replaceChildren(root);

  /** @param {string} text */
  function say(text) {
    error.textContent = '';
    status.textContent = text;
  }

  /**
   * Runs a request with its form's buttons disabled; shows its refusal, else renders the new state.
   * @param {HTMLFormElement|HTMLElement} form @param {Action} action
   * @param {() => Promise<SessionInfo>} request @param {(session: SessionInfo) => string} done
   */
  async function submit(form, action, request, done) {
    const buttons = [...form.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    error.textContent = '';
    status.textContent = '';
    try {
      const session = await request();
      if (closed) return;
      render(session);
      say(done(session));
    } catch (e) {
      if (closed) return;
      error.textContent = accountErrorText(e, action);
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  }

  /** @param {string} id @param {string} title @param {HTMLElement[]} fields @param {string} buttonText */
  function form(id, title, fields, buttonText) {
    const headingId = `${id}-title`;
    return /** @type {HTMLFormElement} */ (
      h('form', {id, class: 'account-form', 'aria-labelledby': headingId}, [
        h('h3', {id: headingId, text: title}),
        ...fields,
        h('div', {class: 'buttons'}, [h('button', {type: 'submit', id: `${id}-submit`, text: buttonText})]),
      ])
    );
  }

  function guestView() {
    const regName = field('register-name', t('account.name'), 'text', 'username', t('account.nameHelp'));
    const regPassword = field('register-password', t('account.password'), 'password', 'new-password', t('account.passwordHelp'));
    regPassword.input.minLength = 8;
    const registerForm = form('register-form', t('account.registerTitle'), [regName.label, regPassword.label], t('account.register'));
    registerForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(registerForm, 'register', () => register(regName.input.value.trim(), regPassword.input.value), (s) =>
        t('account.done.registered', {name: s.displayName || ''}),
      );
    });
    const loginName = field('login-name', t('account.name'), 'text', 'username');
    const loginPassword = field('login-password', t('account.password'), 'password', 'current-password');
    const loginForm = form('login-form', t('account.loginTitle'), [loginName.label, loginPassword.label], t('account.login'));
    loginForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(loginForm, 'login', () => login(loginName.input.value.trim(), loginPassword.input.value), (s) =>
        t('account.done.loggedIn', {name: s.displayName || ''}),
      );
    });
    return [h('p', {text: t('account.guestIntro')}), h('div', {class: 'account-forms'}, [registerForm, loginForm])];
  }

  /** @param {SessionInfo} session */
  function personView(session) {
    const logoutButton = h('button', {type: 'button', id: 'logout-button', text: t('account.logout')});
    const logoutBox = h('div', {class: 'buttons'}, [logoutButton]);
    logoutButton.addEventListener('click', () => submit(logoutBox, 'logout', logout, () => t('account.done.loggedOut')));

    const current = field('password-current', t('account.currentPassword'), 'password', 'current-password');
    const fresh = field('password-new', t('account.newPassword'), 'password', 'new-password', t('account.passwordHelp'));
    fresh.input.minLength = 8;
    const passwordForm = form('password-form', t('account.changePasswordTitle'), [current.label, fresh.label], t('account.changePassword'));
    passwordForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(passwordForm, 'password', () => changePassword(current.input.value, fresh.input.value), () => t('account.done.passwordChanged'));
    });

    // Deleting takes two steps: the button opens a confirmation asking for the password.
    const deletePassword = field('delete-password', t('account.password'), 'password', 'current-password');
    const confirmButton = h('button', {type: 'submit', id: 'delete-confirm', class: 'danger', text: t('account.deleteConfirm')});
    const cancelButton = h('button', {type: 'button', id: 'delete-cancel', text: t('account.cancel')});
    const confirmForm = /** @type {HTMLFormElement} */ (
      h('form', {id: 'delete-form', class: 'account-form', 'aria-label': t('account.deleteTitle'), hidden: true}, [
        h('p', {id: 'delete-warning', text: t('account.deleteWarning')}),
        deletePassword.label,
        h('div', {class: 'buttons'}, [confirmButton, cancelButton]),
      ])
    );
    const deleteButton = h('button', {type: 'button', id: 'delete-account', 'aria-expanded': 'false', 'aria-controls': 'delete-form', text: t('account.deleteAccount')});
    deleteButton.addEventListener('click', () => {
      confirmForm.hidden = false;
      deleteButton.setAttribute('aria-expanded', 'true');
      deletePassword.input.focus();
    });
    cancelButton.addEventListener('click', () => {
      confirmForm.hidden = true;
      deletePassword.input.value = '';
      deleteButton.setAttribute('aria-expanded', 'false');
      deleteButton.focus();
    });
    confirmForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(confirmForm, 'delete', () => deleteAccount(deletePassword.input.value), () => t('account.done.deleted'));
    });
    const deleteSection = h('section', {class: 'account-form', 'aria-labelledby': 'delete-title'}, [
      h('h3', {id: 'delete-title', text: t('account.deleteTitle')}),
      h('div', {class: 'buttons'}, [deleteButton]),
      confirmForm,
    ]);

    return [
      h('p', {id: 'account-name', text: t('account.signedInAs', {name: session.displayName || ''})}),
      logoutBox,
      h('div', {class: 'account-forms'}, [passwordForm, deleteSection]),
    ];
  }

  /** @param {SessionInfo|null} session */
  function render(session) {
    body.replaceChildren(...(isPerson(session) ? personView(session) : guestView()));
    root.dataset.kind = isPerson(session) ? 'person' : 'guest';
  }

  try {
    render(await currentSession());
  } catch (e) {
    render(null);
    error.textContent = accountErrorText(e, 'login');
  }

  return {
    close() {
      closed = true;
    },
  };
}
