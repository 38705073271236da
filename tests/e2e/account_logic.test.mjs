// Unit tests (no browser, no servers) of the account screen's refusal texts:
// each answer of the gateway's account routes (docs/WEB_PROTOCOL.md,
// "Accounts") gets its own sentence, in English and French.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {ApiError} from '../../web/dist/js/api.js';
import {accountErrorText} from '../../web/dist/js/screens/account.js';
import {setLanguage} from '../../web/dist/js/strings.js';

const refused = (status, code, message) => new ApiError(code, message, status);

test('each refusal of the account routes has its own sentence', () => {
  setLanguage('en');
  const cases = [
    [refused(409, 'ALREADY_EXISTS', 'name taken'), 'register', 'This name is already taken: choose another.'],
    [refused(401, 'UNAUTHENTICATED', 'wrong name or password'), 'login', 'Wrong name or password.'],
    [refused(401, 'UNAUTHENTICATED', 'no session'), 'password', 'You are not logged in any more: log in again.'],
    [refused(403, 'PERMISSION_DENIED', 'wrong password'), 'password', 'The password is wrong.'],
    [refused(403, 'PERMISSION_DENIED', 'wrong password'), 'delete', 'The password is wrong.'],
    [refused(429, 'RESOURCE_EXHAUSTED', 'too many failed attempts: retry in 812 s'), 'login', 'Too many failed attempts: try again in 14 min.'],
    [refused(429, 'RESOURCE_EXHAUSTED', 'too many failed attempts: retry in 5 s'), 'login', 'Too many failed attempts: try again in 1 min.'],
    [refused(429, 'RESOURCE_EXHAUSTED', 'slow down'), 'register', 'Too many failed attempts: try again later.'],
    [refused(503, 'UNAVAILABLE', 'accounts are not configured'), 'register', 'Accounts are not available on this server right now.'],
    [refused(409, 'FAILED_PRECONDITION', 'already logged in'), 'register', 'You are already logged in: log out first.'],
    [refused(400, 'INVALID_ARGUMENT', 'name: 3-20 characters'), 'register', 'Not accepted: name: 3-20 characters'],
    [refused(0, 'UNAVAILABLE', 'cannot reach the server (offline)'), 'login', 'Something went wrong: cannot reach the server (offline)'],
  ];
  for (const [error, action, want] of cases) assert.equal(accountErrorText(error, action), want, `${error.status} ${error.code} on ${action}`);
});

test('the refusals in French', () => {
  setLanguage('fr');
  try {
    assert.equal(accountErrorText(refused(409, 'ALREADY_EXISTS', 'x'), 'register'), 'Ce nom est déjà pris : choisissez-en un autre.');
    assert.equal(accountErrorText(refused(503, 'UNAVAILABLE', 'x'), 'login'), 'Les comptes ne sont pas disponibles sur ce serveur pour le moment.');
    assert.equal(accountErrorText(refused(429, 'RESOURCE_EXHAUSTED', 'retry in 120 s'), 'login'), 'Trop de tentatives échouées : réessayez dans 2 min.');
  } finally {
    setLanguage('en');
  }
});
