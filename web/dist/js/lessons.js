// The tutorials' steps: data only. Each step starts a real hotseat game from
// its position (POST /api/games with initialFen), so the gateway gives the
// legal moves and plays the learner's move. What a lesson adds is which of
// those legal moves answer its task: `accept` lists them as "from-to" (the
// move's first and last squares; null: any legal move), `wrong` names the
// explanation for a legal move that misses the point, and `blocked` the one
// for a piece that may not move here (a tap or a drop the board refuses).
// Texts: strings/learn.js under learn.lessons.<lesson>.<step>.

/**
 * @typedef {{id: string, fen: string, accept: string[]|null,
 *            wrong?: Record<string, string>, blocked?: string}} LessonStep
 * @typedef {{id: string, variant: string, steps: LessonStep[]}} Lesson
 */

/** @type {Record<string, Lesson>} */
export const lessons = {
  // Seed 004: Red (FEN White, squares 21-32) at the bottom moves first, men
  // capture backwards, flying kings, free choice, promotion ends the turn.
  'tutorial-8x8': {
    id: 'tutorial-8x8',
    variant: 'tutorial-8x8',
    steps: [
      {id: 'board', fen: 'W:W21-32:B1-12', accept: null},
      {id: 'move', fen: 'W:W18:B4', accept: ['18-14', '18-15']},
      {id: 'capture', fen: 'W:W18:B4,14', accept: ['18-9']},
      {id: 'multi', fen: 'W:W26:B4,14,22', accept: ['26-10']},
      {id: 'mandatory', fen: 'W:W18,28:B4,14', accept: ['18-9'], blocked: 'mustTake'},
      {id: 'promotion', fen: 'W:W6,30:B12', accept: ['6-1', '6-2'], wrong: {'30-25': 'notLastRow', '30-26': 'notLastRow'}},
      {id: 'king', fen: 'W:WK29:B4', accept: ['29-22', '29-18', '29-15', '29-11', '29-8'], wrong: {'29-25': 'oneStep'}},
      {id: 'crownStops', fen: 'W:W11:B6,7', accept: ['11-2']},
      {id: 'win', fen: 'W:WK29:B18', accept: null},
    ],
  },
  // International (seed 000): 10x10, White first; backward captures, the
  // majority rule, flying kings, crowning only where the move ends.
  international: {
    id: 'international',
    variant: 'international',
    steps: [
      {id: 'move', fen: 'W:W33:B3', accept: ['33-28', '33-29']},
      {id: 'captureBack', fen: 'W:W28:B3,32', accept: ['28-37']},
      {id: 'majority', fen: 'W:W47:B3,33,41,42', accept: ['47-29'], blocked: 'mostPieces'},
      {id: 'king', fen: 'W:WK46:B3', accept: ['46-37', '46-32', '46-28', '46-23', '46-19', '46-14', '46-10', '46-5'], wrong: {'46-41': 'oneStep'}},
      {id: 'passThrough', fen: 'W:W13:B7,8,20', accept: ['13-11']},
    ],
  },
  // English checkers (seeds 001, 003): Black (squares 1-12) moves first,
  // men move and take forward only, one-step kings, free choice, crowning ends the move.
  english: {
    id: 'english',
    variant: 'english',
    steps: [
      {id: 'move', fen: 'B:W30:B10', accept: ['10-14', '10-15']},
      {id: 'forwardOnly', fen: 'B:W9,18:B14', accept: ['14-23']},
      {id: 'choice', fen: 'B:W6,8,14:B1,4', accept: ['1-17', '4-11']},
      {id: 'crown', fen: 'B:W25,26:B23', accept: ['23-30']},
      {id: 'king', fen: 'B:W32:BK14', accept: ['14-9', '14-10'], wrong: {'14-17': 'backwards', '14-18': 'backwards'}},
    ],
  },
};

/** @param {string} variant @returns {Lesson|undefined} */
export function lessonFor(variant) {
  return lessons[variant];
}

// "from-to" of a legal move (its path's first and last squares).
/** @param {{path?: number[]}} move */
export function moveKey(move) {
  const path = move.path || [];
  return path.length > 0 ? `${path[0]}-${path[path.length - 1]}` : '';
}
