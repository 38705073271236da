// The chat's messages as lines to show: who wrote (a player's colour, a
// spectator, or the table itself for notices such as "Black left"), kept in
// order, each once however often the socket repeats it. Pure.

export const MAX_CHAT_LINES = 200;
export const MAX_CHAT_CHARS = 500;

/**
 * @typedef {{id: string, kind: 'player'|'spectator'|'system', who: string, color: 'white'|'black'|'', text: string, notice: string}} ChatLine
 */

// message: a ChatMessage JSON.
/** @param {any} message @returns {ChatLine} */
export function chatLine(message) {
  const role = message.role || '';
  const kind = role === 'CHAT_ROLE_SYSTEM' ? 'system' : role === 'CHAT_ROLE_SPECTATOR' ? 'spectator' : 'player';
  const color = message.color === 'COLOR_WHITE' ? 'white' : message.color === 'COLOR_BLACK' ? 'black' : '';
  const notice = message.noticeKind && message.noticeKind !== 'KIND_UNSPECIFIED' ? message.noticeKind : '';
  return {id: String(message.messageId || ''), kind, who: String(message.displayName || ''), color, text: String(message.text || ''), notice};
}

// lines + the newly received messages, in id order ("<ms>-<seq>"), each once,
// the last MAX_CHAT_LINES kept.
/** @param {ChatLine[]} lines @param {any[]} messages @returns {ChatLine[]} */
export function mergeChat(lines, messages) {
  const byId = new Map(lines.map((line) => [line.id, line]));
  for (const message of messages || []) {
    const line = chatLine(message);
    if (line.id) byId.set(line.id, line);
  }
  return [...byId.values()].sort((a, b) => compareIds(a.id, b.id)).slice(-MAX_CHAT_LINES);
}

// What the input holds, ready to send, or '' when there is nothing to send.
/** @param {string} text */
export function cleanChatInput(text) {
  const trimmed = String(text || '').trim();
  return [...trimmed].slice(0, MAX_CHAT_CHARS).join('');
}

/** @param {string} a @param {string} b */
function compareIds(a, b) {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  if (Number.isFinite(am) && Number.isFinite(bm) && (am !== bm || as !== bs)) return am - bm || (as || 0) - (bs || 0);
  return a < b ? -1 : a > b ? 1 : 0;
}
