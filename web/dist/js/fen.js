// Draughts FEN (PDN 3.0) as the server writes it: "W:W31-50:B1-20",
// "B:W18,K24:B1-12". Only reading is needed: the server is the authority.

// Returns {turn: 'white'|'black', pieces: Map<square, {color, king}>} or throws on malformed text.
export function parseFen(text) {
  const body = String(text).trim().replace(/\.$/, '');
  const parts = body.split(':').map((p) => p.trim());
  const turn = colorOf(parts[0]);
  if (!turn) throw new Error(`bad FEN turn in "${text}"`);
  const pieces = new Map();
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    const color = colorOf(part[0]);
    if (!color) throw new Error(`bad FEN side in "${text}"`);
    const items = part.slice(1).split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const item of items) {
      const m = /^(K?)(\d+)(?:-(K?)(\d+))?$/i.exec(item);
      if (!m) throw new Error(`bad FEN item "${item}"`);
      const king = m[1] !== '' || (m[3] !== undefined && m[3] !== '');
      const first = Number(m[2]);
      const last = m[4] !== undefined ? Number(m[4]) : first;
      if (last < first || last - first > 255) throw new Error(`bad FEN range "${item}"`);
      for (let sq = first; sq <= last; sq++) pieces.set(sq, {color, king});
    }
  }
  return {turn, pieces};
}

function colorOf(letter) {
  const l = String(letter || '').toUpperCase();
  return l === 'W' ? 'white' : l === 'B' ? 'black' : null;
}
