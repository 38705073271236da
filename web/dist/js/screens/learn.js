// The tutorials (#/learn/<variant>) and their list (#/learn). Each step of a
// lesson (lessons.js) is a real hotseat game started from the step's
// position: the gateway gives the legal moves and plays the learner's move
// on a live board (board.js); the lesson only says which legal moves answer
// its task, and explains the others.

import {createGame, listVariants} from '../api.js';
import {Board} from '../board.js';
import {parseFen} from '../fen.js';
import {GameSocket} from '../game_socket.js';
import {lessonFor, lessons, moveKey} from '../lessons.js';
import {loadSettings} from '../storage.js';
import {has, t, tList} from '../strings.js';
import {localizeVariant} from '../variant_names.js';

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

/** @param {HTMLElement} container */
function showIndex(container) {
  const list = el('ul', {class: 'learn-list'});
  for (const lesson of Object.values(lessons)) {
    list.append(el('li', {}, [el('a', {href: `#/learn/${lesson.variant}`}, [t('learn.index.startTutorial', {name: variantName(lesson.variant)})])]));
  }
  container.replaceChildren(
    el('section', {class: 'learn', id: 'learn-index'}, [
      el('h2', {}, [t('learn.index.learnHeading')]),
      el('p', {}, [t('learn.index.learnIntro')]),
      list,
      el('p', {}, [el('a', {href: '#/rules'}, [t('learn.rules.allRules')])]),
    ]),
  );
  return {close() {}};
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export async function mount(container, match) {
  const variantId = match[1] ? decodeURIComponent(match[1]) : '';
  if (!variantId) return showIndex(container);
  const lesson = lessonFor(variantId);
  if (!lesson) {
    container.replaceChildren(
      el('section', {class: 'learn'}, [
        el('h2', {}, [t('learn.tutorial.heading', {name: variantName(variantId)})]),
        el('p', {}, [t('learn.tutorial.none')]),
        el('p', {}, [el('a', {href: `#/rules/${variantId}`}, [t('learn.tutorial.readRules')])]),
      ]),
    );
    return {close() {}};
  }
  const tutorial = new Tutorial(container, lesson);
  await tutorial.start();
  return tutorial;
}

class Tutorial {
  /** @param {HTMLElement} container @param {import('../lessons.js').Lesson} lesson */
  constructor(container, lesson) {
    this.container = container;
    this.lesson = lesson;
    this.index = 0;
    /** @type {any} */
    this.variant = null;
    /** @type {GameSocket|null} */
    this.socket = null;
    /** @type {Record<string, string>} */
    this.seats = {};
    /** @type {any} */
    this.game = null;
    /** @type {import('../board.js').LegalMove[]} */
    this.legalMoves = [];
    this.mustCapture = false;
    this.startPly = 0;
    this.pending = false;
    this.done = false;
    this.closed = false;
    this.loadToken = 0;
    this.settings = loadSettings();

    const name = variantName(lesson.variant);
    this.els = {
      root: el('section', {class: 'learn', id: 'tutorial', 'data-variant': lesson.variant}),
      progressText: el('p', {class: 'learn-progress', id: 'tutorial-progress'}),
      progress: /** @type {HTMLProgressElement} */ (el('progress', {max: String(lesson.steps.length), 'aria-labelledby': 'tutorial-progress'})),
      title: el('h3', {id: 'tutorial-title'}),
      text: el('div', {class: 'learn-text'}),
      task: el('p', {class: 'learn-task', id: 'tutorial-task'}),
      board: el('div', {class: 'learn-board'}),
      status: el('p', {class: 'learn-status', id: 'tutorial-status'}),
      feedback: el('p', {class: 'learn-feedback', id: 'tutorial-feedback', role: 'status', 'aria-live': 'polite'}),
      previous: /** @type {HTMLButtonElement} */ (el('button', {type: 'button', id: 'tutorial-previous'}, [t('learn.tutorial.previous')])),
      retry: /** @type {HTMLButtonElement} */ (el('button', {type: 'button', id: 'tutorial-retry'}, [t('learn.tutorial.retry')])),
      next: /** @type {HTMLButtonElement} */ (el('button', {type: 'button', id: 'tutorial-next', class: 'primary'}, [t('learn.tutorial.next')])),
      lessonView: el('div', {class: 'learn-step'}),
      finished: el('div', {class: 'learn-finished', id: 'tutorial-finished', hidden: ''}),
    };
    const e = this.els;
    e.lessonView.append(
      e.progressText, e.progress, e.title, e.text, e.task, e.board, e.status, e.feedback,
      el('div', {class: 'buttons'}, [e.previous, e.retry, e.next]),
    );
    e.finished.append(
      el('h3', {}, [t('learn.tutorial.finishedHeading')]),
      el('p', {}, [t('learn.tutorial.finished', {name})]),
      el('p', {class: 'buttons'}, [
        el('a', {class: 'button primary', href: '#/', id: 'tutorial-play'}, [t('learn.tutorial.playNow')]),
        el('a', {class: 'button', href: `#/rules/${lesson.variant}`}, [t('learn.tutorial.readRules')]),
        el('a', {class: 'button', href: '#/learn'}, [t('learn.tutorial.backToList')]),
      ]),
    );
    e.root.append(el('h2', {}, [t('learn.tutorial.heading', {name})]), e.lessonView, e.finished);
    container.replaceChildren(e.root);

    this.board = new Board(e.board, {
      onMove: (move) => this.chosen(move),
      onNotice: (key) => {
        if (key === 'illegalDrop') this.explainBlocked();
        else if (key) this.say(t(key), 'hint');
      },
    });
    // A tap on one of the learner's pieces that has no move here: the board
    // ignores it, the lesson says why.
    this.onPointerDown = (/** @type {PointerEvent} */ event) => {
      const target = /** @type {Element} */ (event.target);
      const square = Number(target && target.getAttribute ? target.getAttribute('data-square') : 0);
      if (square) this.tapped(square);
    };
    e.board.addEventListener('pointerdown', this.onPointerDown);
    e.previous.addEventListener('click', () => this.go(this.index - 1));
    e.retry.addEventListener('click', () => this.go(this.index));
    e.next.addEventListener('click', () => {
      if (this.index + 1 < this.lesson.steps.length) this.go(this.index + 1);
      else this.finish();
    });
  }

  async start() {
    try {
      const variants = await listVariants();
      const found = variants.find((v) => v.id === this.lesson.variant);
      if (!found) throw new Error(`unknown rule set ${this.lesson.variant}`);
      this.variant = localizeVariant(found);
      this.board.setVariant(this.variant);
    } catch (err) {
      this.say(t('serverError', {message: err.message}), 'error');
      return;
    }
    await this.go(0);
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
    this.socket = null;
    this.els.board.removeEventListener('pointerdown', this.onPointerDown);
  }

  get step() {
    return this.lesson.steps[this.index];
  }

  /** @param {string} part */
  text(part) {
    return `learn.lessons.${this.lesson.id}.${this.step.id}.${part}`;
  }

  /** @param {number} index */
  async go(index) {
    if (index < 0 || index >= this.lesson.steps.length) return;
    this.index = index;
    this.done = false;
    this.pending = false;
    this.game = null;
    this.legalMoves = [];
    if (this.socket) this.socket.close();
    this.socket = null;
    const e = this.els;
    e.finished.hidden = true;
    e.lessonView.hidden = false;
    const total = this.lesson.steps.length;
    e.progressText.textContent = t('learn.tutorial.progress', {step: index + 1, total});
    e.progress.value = index + 1;
    e.title.textContent = t(this.text('title'));
    e.text.replaceChildren(...tList(this.text('text')).map((line) => el('p', {}, [line])));
    e.task.replaceChildren(el('strong', {}, [t('learn.tutorial.yourTask')]), ' ', t(this.text('task')));
    e.previous.disabled = index === 0;
    e.next.textContent = index + 1 < total ? t('learn.tutorial.next') : t('learn.tutorial.finish');
    this.say(t('learn.tutorial.loading'), 'loading');
    this.render();

    const token = ++this.loadToken;
    try {
      const created = await createGame(this.lesson.variant, 'hotseat', this.step.fen);
      if (token !== this.loadToken || this.closed) return;
      this.seats = created.seats || {};
      this.startPly = created.game ? Number(created.game.ply || 0) : 0;
      this.socket = new GameSocket(created.gameId, {
        onFrame: (frame) => this.frame(frame),
        onState: () => {},
      });
      this.socket.open();
    } catch (err) {
      if (token === this.loadToken) this.say(t('serverError', {message: err.message}), 'error');
    }
  }

  /** @param {any} frame */
  frame(frame) {
    if (frame.type === 'snapshot' && frame.game) {
      if (this.game && BigInt(frame.game.version || 0) < BigInt(this.game.version || 0)) return;
      const first = !this.game;
      this.game = frame.game;
      this.legalMoves = frame.legalMoves || [];
      this.mustCapture = Boolean(frame.mustCapture);
      this.pending = false;
      if (Number(this.game.ply || 0) > this.startPly && !this.done) {
        this.done = true;
        this.say(`${t('learn.tutorial.wellDone')} ${t(this.text('done'))}`, 'done');
      } else if (first) {
        this.say('', 'ready');
      }
      this.render();
    } else if (frame.type === 'error') {
      this.pending = false;
      const err = frame.error || {};
      this.say(t('serverError', {message: err.message || err.code || '?'}), 'error');
      this.board.clearSelection();
      this.render();
    }
  }

  sideToMove() {
    const side = this.game && this.game.sideToMove;
    return side === 'COLOR_WHITE' ? 'white' : side === 'COLOR_BLACK' ? 'black' : '';
  }

  /** @param {import('../board.js').LegalMove} move */
  chosen(move) {
    const step = this.step;
    const key = moveKey(move);
    if (step.accept && !step.accept.includes(key)) {
      const why = step.wrong && step.wrong[key];
      this.say(`${t('learn.tutorial.notThat')} ${why ? t(`learn.wrong.${why}`) : t(this.text('task'))}`, 'wrong');
      this.board.clearSelection();
      return;
    }
    const side = this.sideToMove();
    const seat = this.seats[side];
    if (!this.socket || !seat || !this.game) return;
    const sent = this.socket.send('move', {token: seat, expectedPly: Number(this.game.ply || 0), move: move.notation});
    if (sent) {
      this.pending = true;
      this.render();
    }
  }

  /** @param {number} square */
  tapped(square) {
    if (this.done || this.pending || !this.game) return;
    const position = parseFen(this.game.fen);
    const piece = position.pieces.get(square);
    if (!piece || piece.color !== this.sideToMove()) return;
    const movable = this.legalMoves.some((m) => (m.path || [])[0] === square);
    if (!movable) this.explainBlocked();
  }

  explainBlocked() {
    const why = this.step.blocked;
    this.say(`${t('learn.tutorial.notThat')} ${why ? t(`learn.wrong.${why}`) : t('learn.tutorial.wrongPiece')}`, 'wrong');
  }

  finish() {
    if (this.socket) this.socket.close();
    this.socket = null;
    this.els.lessonView.hidden = true;
    this.els.finished.hidden = false;
    this.els.root.dataset.finished = 'true';
    const play = this.els.finished.querySelector('#tutorial-play');
    // "Play a game" opens the start page with this rule set chosen.
    play.addEventListener('click', () => {
      const select = /** @type {HTMLSelectElement|null} */ (document.getElementById('variant'));
      if (select && [...select.options].some((o) => o.value === this.lesson.variant)) {
        select.value = this.lesson.variant;
        select.dispatchEvent(new Event('change'));
      }
    });
  }

  /** @param {string} message @param {string} kind */
  say(message, kind) {
    this.els.feedback.textContent = message;
    this.els.feedback.dataset.kind = kind;
  }

  render() {
    const e = this.els;
    const game = this.game;
    const position = game ? parseFen(game.fen) : parseFen(this.step.fen);
    const learnerIsBlack = this.step.fen.trim().toUpperCase().startsWith('B');
    const names = (this.variant && this.variant.colorNames) || {white: 'White', black: 'Black'};
    const ongoing = game && ['GAME_RESULT_ONGOING', 'GAME_RESULT_UNSPECIFIED', undefined].includes(game.result);
    this.board.update({
      pieces: position.pieces,
      legalMoves: this.legalMoves,
      mustCapture: this.mustCapture,
      flipped: learnerIsBlack,
      interactive: Boolean(game && ongoing && !this.done && !this.pending && this.seats[this.sideToMove()]),
      lastMove: game && game.lastMove ? game.lastMove : null,
      options: {showMoves: this.settings.showMoves !== false, showNumbers: this.settings.showNumbers !== false},
    });
    let status = '';
    if (game && !ongoing) {
      const winner = game.result === 'GAME_RESULT_WHITE_WINS' ? names.white : game.result === 'GAME_RESULT_BLACK_WINS' ? names.black : '';
      status = winner ? t('wins', {color: winner}) : t('draw');
    } else if (game && !this.done) {
      const color = names[this.sideToMove()] || '';
      status = this.mustCapture ? t('mustCapture', {color}) : t('toMove', {color});
    }
    e.status.textContent = status;
    e.next.disabled = !this.done;
    e.retry.disabled = !this.game;
    const data = e.root.dataset;
    data.step = this.step.id;
    data.stepIndex = String(this.index);
    data.done = this.done ? 'true' : 'false';
    data.ready = game && !this.pending ? 'true' : 'false';
    data.ply = game ? String(game.ply || 0) : '';
    data.result = game ? String(game.result || '') : '';
  }
}
