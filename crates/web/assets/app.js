// yomi serve: the page. Plain JavaScript, no libraries. Every request to the API carries the
// game and its whole move list (the server keeps no session).
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, opts);
  let data;
  try {
    data = await response.json();
  } catch (_) {
    data = { error: `HTTP ${response.status}` };
  }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function fmt(x) {
  if (typeof x !== 'number' || !isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

let GAMES = {};
let ORDER = [];

// ---------------------------------------------------------------- play

const play = {
  game: 'tictactoe',
  moves: [],
  state: null,
  why: null, // the last agent move's answer
  gen: 0, // bumped on every change; stale answers are dropped
  thinking: false,
  pending: false, // a human move is on its way to the server
  error: null,
  announce: '',
};

function sideSpec(i) {
  const box = $(`side-${i}`);
  const kind = box.querySelector('.kind').value;
  if (kind === 'human') return null;
  const spec = box.querySelector('.spec').value.trim();
  return spec || kind;
}

function humans() {
  return [sideSpec(0) === null, sideSpec(1) === null];
}

function fillSides() {
  const info = GAMES[play.game];
  for (const i of [0, 1]) {
    const box = $(`side-${i}`);
    box.querySelector('.side-name').textContent =
      `${info.players[i]} (${i === 0 ? 'moves first' : 'moves second'})`;
    const kind = box.querySelector('.kind');
    const before = kind.value;
    kind.replaceChildren(el('option', { value: 'human', text: 'human' }));
    for (const a of info.agents) kind.append(el('option', { value: a.name, text: a.name }));
    const fallback = i === 0 ? 'human' : (info.agents.some((a) => a.name === 'perfect') ? 'perfect' : 'alphabeta');
    kind.value = info.agents.some((a) => a.name === before) || before === 'human' ? before : fallback;
    if (!kind.value) kind.value = fallback;
    onKind(i);
  }
}

function onKind(i) {
  const box = $(`side-${i}`);
  const kind = box.querySelector('.kind').value;
  const spec = box.querySelector('.spec');
  const params = box.querySelector('.params');
  if (kind === 'human') {
    spec.hidden = true;
    params.replaceChildren(el('span', { text: 'you click to move' }));
    return;
  }
  const agent = GAMES[play.game].agents.find((a) => a.name === kind);
  spec.hidden = false;
  spec.value = agent.example;
  const list = el('div', {}, el('div', { text: agent.summary }));
  for (const p of agent.params) {
    list.append(el('div', {}, el('code', { text: `${p.name}=${p.default || '…'}` }), ` ${p.help}`));
  }
  if (agent.params.length) {
    list.append(el('div', { text: `edit the spec above, e.g. ${agent.name}:${agent.params[0].name}=${agent.params[0].default || 'X'}` }));
  }
  params.replaceChildren(list);
}

async function newGame() {
  play.gen += 1;
  play.pending = false;
  play.thinking = false;
  play.moves = [];
  play.why = null;
  play.error = null;
  play.announce = '';
  await refresh();
}

async function refresh() {
  const gen = play.gen;
  try {
    const state = await api('/api/state', { game: play.game, moves: play.moves });
    if (gen !== play.gen) return;
    play.state = state;
    play.error = null;
  } catch (e) {
    if (gen !== play.gen) return;
    play.error = e.message;
  }
  play.pending = false;
  render();
  maybeAgent();
}

function seedFor(ply) {
  const text = $('seed').value.trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text) + ply; // reproducible, and a different stream for each move
}

async function maybeAgent() {
  const state = play.state;
  if (!state || state.outcome || play.thinking) return;
  const side = state.to_move === 'first' ? 0 : 1;
  const spec = sideSpec(side);
  if (spec === null) return;
  const gen = play.gen;
  play.thinking = true;
  render();
  try {
    const body = { game: play.game, moves: play.moves, agent: spec };
    const seed = seedFor(state.ply);
    if (seed !== undefined) body.seed = seed;
    const answer = await api('/api/move', body);
    if (gen !== play.gen) return;
    play.why = answer;
    play.moves = answer.state.moves;
    play.state = answer.state;
    play.error = null;
    const who = state.players[side];
    play.announce = answer.move === 'PA' ? `${who} passes` : `${who} played ${answer.move}`;
  } catch (e) {
    if (gen === play.gen) play.error = e.message;
    return;
  } finally {
    if (gen === play.gen) play.thinking = false;
    if (gen === play.gen) render();
  }
  // Agent against agent: a short pause so that people can follow.
  const [h0, h1] = humans();
  setTimeout(() => { if (gen === play.gen) maybeAgent(); }, h0 || h1 ? 0 : 350);
}

function humanMove(mv) {
  const state = play.state;
  if (!state || state.outcome || play.thinking || play.pending) return;
  const side = state.to_move === 'first' ? 0 : 1;
  if (sideSpec(side) !== null) return;
  if (!state.legal.some((m) => m.move === mv)) return;
  play.gen += 1;
  play.moves = state.moves.concat([mv]);
  play.why = null;
  play.announce = mv === 'PA' ? `${state.players[side]} passes` : '';
  play.pending = true;
  render(); // no more clicks until the server has answered
  refresh();
}

async function undo() {
  if (play.moves.length === 0) return;
  play.gen += 1;
  const gen = play.gen;
  play.thinking = false;
  play.pending = false;
  play.why = null;
  play.announce = '';
  const [h0, h1] = humans();
  let moves = play.moves.slice();
  // Back to the last position where a human is to move (or one move back without humans).
  for (;;) {
    moves = moves.slice(0, -1);
    let state;
    try {
      state = await api('/api/state', { game: play.game, moves });
    } catch (e) {
      play.error = e.message;
      break;
    }
    if (gen !== play.gen) return;
    play.state = state;
    const human = state.to_move === 'first' ? h0 : h1;
    if (human || !(h0 || h1) || moves.length === 0) break;
  }
  play.moves = moves;
  render();
  maybeAgent();
}

function render() {
  const state = play.state;
  const status = $('status');
  status.className = '';
  status.removeAttribute('data-outcome');
  $('board').replaceChildren();
  $('actions').replaceChildren();
  if (!state) {
    status.textContent = play.error || 'loading…';
    return;
  }
  const names = state.players;
  const [h0, h1] = humans();
  const toMove = state.to_move === 'first' ? 0 : 1;
  const humanTurn = !state.outcome && !play.thinking && !play.pending && (toMove === 0 ? h0 : h1);
  let text;
  if (state.outcome) {
    const winner = state.outcome.winner;
    status.className = 'over';
    status.dataset.outcome = winner || 'draw';
    text = `Game over: ${state.outcome.text}.`;
    if (h0 !== h1) {
      const you = h0 ? 'first' : 'second';
      text += winner === null ? ' A draw.' : winner === you ? ' You win!' : ' You lose.';
    }
  } else if (play.thinking) {
    text = `${names[toMove]} (${sideSpec(toMove)}) is thinking…`;
  } else if (humanTurn) {
    text = state.must_pass ? `${names[toMove]} has no move and must pass.` : `${names[toMove]} to move: your turn.`;
  } else {
    text = `${names[toMove]} to move.`;
  }
  if (play.announce) text = `${play.announce}. ${text}`;
  if (play.error) {
    status.className = 'error';
    text = `${text} Error: ${play.error}`;
  }
  status.textContent = text;
  if (state.board.kind === 'grid') status.textContent += `  (${names[0]} ${state.board.counts[0]}, ${names[1]} ${state.board.counts[1]})`;

  const why = $('show-why').checked && play.why ? play.why.explanation : null;
  const scores = new Map();
  if (why) for (const m of why.moves) scores.set(m.move, m);
  const legal = new Map(state.legal.map((m) => [m.move, m]));
  const lastMove = state.moves.length ? state.moves[state.moves.length - 1] : null;

  if (state.board.kind === 'grid') {
    const b = state.board;
    const grid = el('div', { class: `grid ${state.game === 'othello' ? 'othello' : 'ttt'}`, id: 'grid' });
    const byCell = new Map();
    for (const m of state.legal) if (m.cell !== null) byCell.set(m.cell, m.move);
    const scoreByCell = new Map();
    if (why) for (const m of why.moves) if (m.cell !== null) scoreByCell.set(m.cell, m);
    const lastCell = lastMove === null ? null : cellOf(lastMove);
    b.cells.forEach((owner, i) => {
      const mv = byCell.get(i);
      const clickable = humanTurn && mv !== undefined;
      const cell = el('button', {
        type: 'button',
        class: `cell${clickable ? ' legal' : ''}${i === lastCell ? ' last' : ''}`,
        'data-cell': i,
        'data-move': mv,
        'aria-label': `cell ${i}${owner ? ` ${names[owner === 'first' ? 0 : 1]}` : ' empty'}`,
        onclick: clickable ? () => humanMove(mv) : null,
      });
      if (owner) {
        if (state.game === 'othello') cell.append(el('div', { class: `disc ${owner}` }));
        else cell.append(el('span', { class: `mark ${owner}`, text: owner === 'first' ? 'O' : 'X' }));
      }
      const s = scoreByCell.get(i);
      if (s) {
        const best = why.best.includes(s.move);
        const chosen = why.chosen === s.move;
        cell.append(el('span', {
          class: `score${best ? ' best' : ''}${chosen ? ' chosen' : ''}`,
          text: fmt(s.score),
          title: `${s.move}: score ${s.score}${s.note ? ` [${s.note}]` : ''}`,
        }));
      }
      grid.append(cell);
    });
    $('board').append(grid);
  } else {
    const b = state.board;
    const pile = el('div', { class: 'pile', id: 'pile', 'aria-label': `${b.left} stones` });
    const justTaken = lastMove ? Number(lastMove) : 0;
    for (let i = 0; i < b.total; i += 1) {
      const taken = i >= b.left;
      const just = taken && i < b.left + justTaken;
      pile.append(el('div', { class: `stone${taken ? ' taken' : ''}${just ? ' just' : ''}` }));
    }
    $('board').append(pile, el('div', { text: `${b.left} stones left; take 1 to 3, taking the last stone wins.` }));
  }

  // Moves that are not on a cell: takes and passes.
  for (const m of state.legal) {
    if (m.cell !== null) continue;
    const label = m.move === 'PA' ? 'Pass' : `Take ${m.move}`;
    const button = el('button', {
      type: 'button', 'data-move': m.move, disabled: !humanTurn, onclick: () => humanMove(m.move),
    }, label);
    const s = scores.get(m.move);
    if (s) {
      const best = why.best.includes(s.move);
      button.append(el('span', { class: `score${best ? ' best' : ''}${why.chosen === s.move ? ' chosen' : ''}`, text: fmt(s.score) }));
    }
    $('actions').append(button);
  }
  if (!legal.size && !state.outcome) $('actions').append(el('span', { text: 'no legal move' }));

  const history = $('history');
  history.replaceChildren();
  let side = 0;
  // Sides alternate every ply (a pass is a ply).
  for (const [i, mv] of state.moves.entries()) {
    history.append(el('li', { text: `${i + 1}. ${names[side]} ${mv}` }));
    side = 1 - side;
  }
  renderWhy();
}

function cellOf(mv) {
  // Grid moves: tic-tac-toe "(x,y)", Othello "f5".
  let m = /^\((\d),(\d)\)$/.exec(mv);
  if (m) return Number(m[2]) * 3 + Number(m[1]);
  m = /^([a-h])([1-8])$/.exec(mv);
  if (m) return (Number(m[2]) - 1) * 8 + (m[1].charCodeAt(0) - 97);
  return null;
}

function renderWhy() {
  const box = $('why');
  box.replaceChildren();
  if (!play.why) return;
  const w = play.why;
  const e = w.explanation;
  box.append(el('h3', { text: `Why ${e.chosen}?` }));
  box.append(el('div', { class: 'meta', text: `agent ${e.agent}; seed ${w.seed}; ${fmt(w.elapsed_ms)} ms` }));
  const table = el('table', {}, el('tr', {}, el('th', { text: 'move' }), el('th', { text: 'score' }), el('th', { text: 'rule' }), el('th', { text: 'parts' })));
  for (const m of e.moves) {
    const parts = m.parts.map((p) => `${p.label}=${fmt(p.value)}`).join('  ');
    table.append(el('tr', { class: `${e.best.includes(m.move) ? 'best' : ''}${e.chosen === m.move ? ' chosen' : ''}` },
      el('td', { text: m.move }), el('td', { text: fmt(m.score) }), el('td', { text: m.note || '' }), el('td', { text: parts })));
  }
  box.append(table);
  for (const n of e.notes) box.append(el('div', { class: 'meta', text: `note: ${n}` }));
  box.append(el('div', { class: 'meta', text: `best: ${e.best.join(' ')}; chosen: ${e.chosen}` }));
}

// ---------------------------------------------------------------- tree browser

const tree = { game: 'tictactoe', moves: [], view: null, gen: 0, selected: -1 };

const DATA = [
  ['minimax', (p) => 'minimax'],
  ['sv', (p) => 'shortest victory'],
  ['p_first', (p) => `P(${p[0]} wins)`],
  ['p_second', (p) => `P(${p[1]} wins)`],
  ['p_draw', (p) => 'P(draw)'],
  ['score_first', (p) => `playout score of ${p[0]}`],
  ['score_second', (p) => `playout score of ${p[1]}`],
];

function fillTreeData() {
  const players = GAMES[tree.game].players;
  const select = $('tree-data');
  const before = select.value || 'minimax';
  select.replaceChildren(...DATA.map(([k, label]) => el('option', { value: k, text: label(players) })));
  select.value = before;
}

async function loadTree() {
  tree.gen += 1;
  const gen = tree.gen;
  const data = $('tree-data').value;
  try {
    const view = await api('/api/tree', {
      game: tree.game,
      moves: tree.moves,
      alpha: $('tree-alpha').value.trim() || '1/2',
      scoring: data === 'sv' ? 'sv' : 'plain',
    });
    if (gen !== tree.gen) return;
    tree.view = view;
    tree.moves = view.moves;
    $('tree-status').textContent = '';
    $('tree-status').className = '';
  } catch (e) {
    if (gen !== tree.gen) return;
    $('tree-status').textContent = `Error: ${e.message}`;
    $('tree-status').className = 'error';
    return;
  }
  renderTree();
}

function valueClass(key, v) {
  if (key === 'minimax' || key === 'sv') return v > 0 ? 'pos' : v < 0 ? 'neg' : '';
  return '';
}

function renderTree() {
  const v = tree.view;
  if (!v) return;
  const key = $('tree-data').value;
  const players = v.players;
  const path = $('tree-path');
  path.replaceChildren(el('button', { type: 'button', onclick: () => { tree.moves = []; loadTree(); } }, 'start'));
  v.moves.forEach((mv, i) => {
    path.append(el('button', { type: 'button', onclick: () => { tree.moves = v.moves.slice(0, i + 1); loadTree(); } }, mv));
  });
  path.append(` ply ${v.ply}, position ${v.node.position}`);

  const rows = el('table', {});
  for (const [k, label] of DATA) {
    const val = v.node.values[k];
    rows.append(el('tr', {}, el('td', { text: label(players) }),
      el('td', { class: 'num', title: val.exact, text: val.exact })));
  }
  const node = $('tree-node');
  node.replaceChildren();
  const holder = el('div', { class: 'board-svg' });
  holder.innerHTML = v.node.svg; // drawn by the server (yomi_tree::svg), no user text inside
  node.append(holder, rows);
  if (v.node.outcome) node.append(el('strong', { text: `game over: ${v.node.outcome.text}` }));

  const kids = $('tree-children');
  kids.replaceChildren();
  v.children.forEach((c, i) => {
    const val = c.values[key];
    const card = el('div', {
      class: `card${i === tree.selected ? ' selected' : ''}`,
      'data-move': c.move,
      title: `${c.move} → ${c.position}`,
      onclick: () => descend(i),
    });
    card.append(el('span', { class: `value ${valueClass(key, val.value)}`, title: `${DATA.find((d) => d[0] === key)[1](players)} = ${val.exact}`, text: val.text }));
    const svg = el('div', {});
    svg.innerHTML = c.svg;
    card.append(svg, el('span', { class: 'move', text: `${c.move}${c.best_plain ? ' ★' : ''}` }));
    kids.append(card);
  });
  if (!v.children.length) kids.append(el('em', { text: 'a finished game: no children' }));
}

function descend(i) {
  const v = tree.view;
  if (!v || !v.children[i]) return;
  tree.moves = v.moves.concat([v.children[i].move]);
  tree.selected = -1;
  loadTree();
}

function treeKey(event) {
  if ($('tree').hidden) return;
  const tag = event.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  const v = tree.view;
  if (!v) return;
  switch (event.key) {
    case 'ArrowUp':
      if (v.moves.length) {
        const last = v.moves[v.moves.length - 1];
        tree.moves = v.moves.slice(0, -1);
        tree.selected = Math.max(0, v.siblings.indexOf(last));
        loadTree();
      }
      break;
    case 'ArrowDown':
      if (v.children.length) descend(0);
      break;
    case 'ArrowLeft':
    case 'ArrowRight': {
      if (v.index === null || !v.siblings.length) break;
      const step = event.key === 'ArrowLeft' ? -1 : 1;
      const k = (v.index + step + v.siblings.length) % v.siblings.length;
      tree.moves = v.moves.slice(0, -1).concat([v.siblings[k]]);
      tree.selected = -1;
      loadTree();
      break;
    }
    default:
      return;
  }
  event.preventDefault();
}

// ---------------------------------------------------------------- start

function showTab(name) {
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.dataset.tab === name);
  $('play').hidden = name !== 'play';
  $('tree').hidden = name !== 'tree';
  if (name === 'tree' && !tree.view) loadTree();
}

async function start() {
  let info;
  try {
    info = await api('/api/games');
  } catch (e) {
    $('status').textContent = `Cannot reach the server: ${e.message}`;
    return;
  }
  ORDER = info.games.map((g) => g.id);
  for (const g of info.games) GAMES[g.id] = g;
  const game = $('game');
  for (const g of info.games) game.append(el('option', { value: g.id, text: g.title }));
  // A link may name the game: /#nim, /#othello.
  const wanted = location.hash.slice(1);
  if (GAMES[wanted]) play.game = wanted;
  game.value = play.game;
  const treeGame = $('tree-game');
  for (const g of info.games.filter((g) => g.tree)) treeGame.append(el('option', { value: g.id, text: g.title }));
  treeGame.value = tree.game;
  fillSides();
  fillTreeData();

  game.addEventListener('change', () => { play.game = game.value; fillSides(); newGame(); });
  for (const i of [0, 1]) {
    const box = $(`side-${i}`);
    box.querySelector('.kind').addEventListener('change', () => { onKind(i); render(); maybeAgent(); });
    box.querySelector('.spec').addEventListener('change', () => { render(); maybeAgent(); });
  }
  $('restart').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('show-why').addEventListener('change', render);
  for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => showTab(t.dataset.tab));
  treeGame.addEventListener('change', () => { tree.game = treeGame.value; tree.moves = []; tree.selected = -1; fillTreeData(); loadTree(); });
  $('tree-data').addEventListener('change', loadTree);
  $('tree-alpha').addEventListener('change', loadTree);
  document.addEventListener('keydown', treeKey);
  if (location.hash === '#tree') showTab('tree');
  newGame();
}

start();
