// Every text the client shows, so a translation is one more table here.
// Placeholders are written {name} and filled by t().

const en = {
  title: 'Draughts',
  board: 'Board',
  boardHelp: 'Board: tap a piece, then where it goes; or use the arrow keys and Enter',
  cursorAt: 'Square {square}: {what}',
  pieceMan: '{color} man',
  pieceKing: '{color} king',
  emptySquare: 'empty',
  boardOptions: 'Board',
  showMoves: 'Show possible moves',
  showNumbers: 'Square numbers',
  watching: 'Watching',
  watchingHelp: "You are a spectator: only the game's players can move, resign or offer a draw.",
  watchingStatus: 'Watching · {status}',
  illegalDrop: 'That piece cannot go there',
  startHeading: 'New game',
  ruleSet: 'Rule set',
  mode: 'Players',
  modeHotseat: 'Two players on this device',
  startGame: 'Start game',
  resumeGame: 'Resume the game in progress',
  loading: 'Loading…',
  newGame: 'New game',
  flip: 'Flip board',
  autoFlip: 'Side to move at the bottom',
  resign: 'Resign',
  offerDraw: 'Offer draw',
  acceptDraw: 'Accept draw',
  declineDraw: 'Decline draw',
  captured: 'captured',
  toMove: '{color} to move',
  mustCapture: '{color} to move: you must capture',
  drawOffered: '{color} offers a draw: {other}, accept or decline?',
  forSide: '{action} ({color})',
  confirmResign: '{color}: resign? Press again',
  wins: '{color} wins',
  draw: 'Draw',
  multiRoute: 'Several ways lead there: tap each landing square in turn',
  connecting: 'Connecting…',
  reconnecting: 'Connection lost, reconnecting…',
  gameGone: 'That game no longer exists; start a new one.',
  serverError: 'Error: {message}',
  noVariants: 'Could not load the rule sets: {message}',
  reason: {
    RESULT_REASON_NO_PIECES: 'no pieces left',
    RESULT_REASON_NO_MOVES: 'no move left',
    RESULT_REASON_RESIGNATION: 'by resignation',
    RESULT_REASON_DRAW_AGREED: 'by agreement',
    RESULT_REASON_THREEFOLD_REPETITION: 'threefold repetition',
    RESULT_REASON_TWENTY_FIVE_MOVE_RULE: '25-move rule',
    RESULT_REASON_SIXTEEN_MOVE_RULE: '16-move rule',
    RESULT_REASON_FIVE_MOVE_RULE: '5-move rule',
    RESULT_REASON_FORTY_MOVE_RULE: '40-move rule',
    RESULT_REASON_MOVE_LIMIT: 'move limit reached',
    RESULT_REASON_TIMEOUTS: 'three moves timed out',
    RESULT_REASON_ABANDONED: 'the opponent left',
    RESULT_REASON_FIRST_KING: 'first king',
  },
};

const tables = {en};
let current = en;

// Picks the table for a language code ("en", "fr-FR"); unknown ones fall back to English.
/** @param {string} code */
export function setLanguage(code) {
  current = tables[String(code || '').slice(0, 2).toLowerCase()] || en;
  return current === en ? 'en' : String(code).slice(0, 2).toLowerCase();
}

// The text for a key ("toMove" or "reason.RESULT_REASON_NO_PIECES"), placeholders filled.
/** @param {string} key @param {Record<string, string|number>} params @returns {string} */
export function t(key, params = {}) {
  let value = key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), current);
  if (typeof value !== 'string') value = key;
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
