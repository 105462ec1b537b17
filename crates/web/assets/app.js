// yomi serve: the page. Plain JavaScript, no libraries. Every request to the API carries the
// game, its start position (when set up) and its whole move list: the server keeps no session.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

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

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

async function api(path, body, signal) {
  const opts = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  if (signal) opts.signal = signal;
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

function typing(event) {
  const tag = event.target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA';
}

let GAMES = {};
let THINK = 5;
// The server's opening book (`yomi serve --book`): its name and size, or null.
let BOOK = null;

// ---------------------------------------------------------------- play

const play = {
  game: 'tictactoe',
  start: null, // a set-up start position, or null for the game's standard start
  moves: [], // the record
  view: 0, // the ply shown (0 .. moves.length)
  state: null, // the position shown
  why: null, // the last agent move's answer
  gen: 0, // bumped on every change of the shown position; stale answers are dropped
  thinking: false,
  pending: false, // a human move is on its way to the server
  error: null,
  announce: '',
  analysis: null, // the analysis of the shown position
  analysisKey: null,
  analysisCtl: null, // the AbortController of the analysis in flight
  analysisError: null,
  evals: new Map(), // position key -> analysis answer (for the graph)
  scan: null, // the AbortController of an "analyse game" run
  agentCtl: null, // the AbortController of the agent move in flight
  editing: null, // the position editor's board while it is open
  clock: null, // { base, inc, left: [s, s], since: ms or null, flagged: side or null }
};

// ---------------------------------------------------------------- the game clock

// A fresh clock from the picker (or none): both sides get the base time.
function resetClock() {
  const text = $('clock').value;
  if (!text) {
    play.clock = null;
  } else {
    const [base, inc] = text.split('+').map(Number);
    play.clock = { base, inc, left: [base, base], since: null, flagged: null };
  }
  renderClocks();
}

// The time left on `side`'s clock now (its running turn counted).
function clockLeft(side) {
  const c = play.clock;
  const running = c.since !== null && play.state && !play.state.outcome && atEnd()
    && (play.state.to_move === 'first' ? 0 : 1) === side && sideSpec(side) === null;
  return c.left[side] - (running ? (performance.now() - c.since) / 1000 : 0);
}

// Charges `side` for `seconds` of thinking and adds the increment; a side with no time left
// loses on time.
function chargeClock(side, seconds) {
  const c = play.clock;
  if (!c || c.flagged !== null) return;
  c.left[side] -= seconds;
  if (c.left[side] <= 0) {
    c.left[side] = 0;
    c.flagged = side;
  } else {
    c.left[side] += c.inc;
  }
  c.since = null;
}

// Starts a human's clock at the end of the record when a human is to move.
function startHumanClock() {
  const c = play.clock;
  if (!c || !play.state || play.state.outcome || !atEnd()) return;
  const side = play.state.to_move === 'first' ? 0 : 1;
  if (sideSpec(side) === null && c.since === null) c.since = performance.now();
}

function clockText(s) {
  const t = Math.max(0, s);
  const m = Math.floor(t / 60);
  const sec = t - 60 * m;
  return `${m}:${sec < 10 ? '0' : ''}${sec.toFixed(1)}`;
}

function renderClocks() {
  const box = $('clocks');
  const c = play.clock;
  box.hidden = !c;
  if (!c) return;
  const names = GAMES[play.game] ? GAMES[play.game].players : ['first', 'second'];
  for (const side of [0, 1]) {
    if (c.flagged === null && c.since !== null && clockLeft(side) <= 0) {
      c.left[side] = 0;
      c.flagged = side;
      c.since = null;
      dropAgent();
      render();
    }
  }
  const toMove = play.state && !play.state.outcome ? (play.state.to_move === 'first' ? 0 : 1) : -1;
  box.replaceChildren(...[0, 1].map((side) => el('span', {
    class: `clock${side === toMove ? ' running' : ''}${c.flagged === side ? ' flagged' : ''}`,
    'data-side': side,
    text: `${names[side]} ${clockText(clockLeft(side))}${c.flagged === side ? ' (out of time)' : ''}`,
  })));
}

setInterval(() => { if (play.clock) renderClocks(); }, 200);

const info = () => GAMES[play.game];

function keyOf(game, start, moves) {
  return `${game}|${start || ''}|${moves.join(' ')}`;
}

function shownKey() {
  return keyOf(play.game, play.start, play.moves.slice(0, play.view));
}

function request(moves, extra) {
  const body = { game: play.game, moves };
  if (play.start) body.start = play.start;
  return Object.assign(body, extra || {});
}

function atEnd() {
  return play.view === play.moves.length;
}

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
  const g = info();
  for (const i of [0, 1]) {
    const box = $(`side-${i}`);
    box.querySelector('.side-name').textContent =
      `${g.players[i]} (${i === 0 ? 'moves first' : 'moves second'})`;
    const kind = box.querySelector('.kind');
    const before = kind.value;
    kind.replaceChildren(el('option', { value: 'human', text: 'human' }));
    for (const a of g.agents) kind.append(el('option', { value: a.name, text: a.name }));
    // The second player is the server's first offer (the `othello` engine at a middle level
    // on 8x8 Othello); the first is you.
    const fallback = i === 0 ? 'human' : specName(g.opponent);
    kind.value = g.agents.some((a) => a.name === before) || before === 'human' ? before : fallback;
    if (!kind.value) kind.value = fallback;
    onKind(i);
  }
  const format = $('record-format');
  format.replaceChildren(...g.formats.map((f) => el('option', { value: f, text: f === 'line' ? 'move line' : f.toUpperCase() })));
}

function onKind(i) {
  const box = $(`side-${i}`);
  const kind = box.querySelector('.kind').value;
  const spec = box.querySelector('.spec');
  const params = box.querySelector('.params');
  if (kind === 'human') {
    box.querySelector('.level').hidden = true;
    spec.hidden = true;
    params.replaceChildren(el('span', { text: 'you click (or type) to move' }));
    return;
  }
  const agent = info().agents.find((a) => a.name === kind);
  spec.hidden = false;
  spec.value = agent.example;
  fillLevels(i, agent);
  const list = el('div', {}, el('div', { text: agent.summary }));
  for (const p of agent.params) {
    list.append(el('div', {}, el('code', { text: `${p.name}=${p.default || '…'}` }), ` ${p.help}`));
  }
  if (agent.params.length) {
    list.append(el('div', { text: `edit the spec above, e.g. ${agent.name}:${agent.params[0].name}=${agent.params[0].default || 'X'}` }));
  }
  params.replaceChildren(list);
}

// The agent name of a spec: `othello` for `othello:level=12`.
function specName(spec) {
  return spec.split(':')[0];
}

// The level a spec asks for (`level=N`), or '' for none.
function specLevel(spec) {
  const m = /(?:^[^:]*:|,)level=(\d+)(?:,|$)/.exec(spec);
  return m ? m[1] : '';
}

// The level picker of side `i` for `agent`: shown only for agents with levels (the `othello`
// engine of 8x8 Othello), preset to the server's first offer, and writing `name:level=N` into
// the spec; "none" leaves the spec to the agent's own settings.
function fillLevels(i, agent) {
  const box = $(`side-${i}`);
  const label = box.querySelector('.level');
  const select = box.querySelector('.level-select');
  const levels = agent.levels || [];
  label.hidden = levels.length === 0;
  if (!levels.length) return;
  const text = (l) => {
    const solve = l.wld > l.exact ? `WLD at ${l.wld} empties, exact at ${l.exact}` : `exact at ${l.exact} empties`;
    return `${l.level}: depth ${l.depth}, ${solve}`;
  };
  select.replaceChildren(
    el('option', { value: '', text: 'none (the spec decides)' }),
    ...levels.map((l) => el('option', { value: String(l.level), text: text(l) })),
  );
  const offer = info().opponent;
  const wanted = specName(offer) === agent.name ? specLevel(offer) : '';
  select.value = wanted || String(levels[Math.floor(levels.length / 2)].level);
  onLevel(i);
}

function onLevel(i) {
  const box = $(`side-${i}`);
  const kind = box.querySelector('.kind').value;
  const level = box.querySelector('.level-select').value;
  const agent = info().agents.find((a) => a.name === kind);
  box.querySelector('.spec').value = level ? `${kind}:level=${level}` : agent.example;
}

// A spec typed by hand moves the level picker to the level it names (or to none).
function syncLevel(i) {
  const box = $(`side-${i}`);
  if (box.querySelector('.level').hidden) return;
  const select = box.querySelector('.level-select');
  const level = specLevel(box.querySelector('.spec').value.trim());
  select.value = [...select.options].some((o) => o.value === level) ? level : '';
}

// Drops the agent move in flight (its request is aborted: the server stops the agent).
function dropAgent() {
  if (play.agentCtl) play.agentCtl.abort();
  play.agentCtl = null;
  play.thinking = false;
}

function stopScan() {
  if (play.scan) play.scan.abort();
  play.scan = null;
}

// A new record: the game's standard start (or `start`) and `moves`.
async function newGame(start, moves) {
  stopScan();
  dropAgent();
  play.start = start || null;
  play.moves = moves || [];
  play.why = null;
  play.error = null;
  play.announce = '';
  play.editing = null;
  resetClock();
  await show(play.moves.length);
}

// Shows the position after `ply` moves of the record.
async function show(ply) {
  dropAgent();
  play.gen += 1;
  const gen = play.gen;
  play.view = Math.max(0, Math.min(ply, play.moves.length));
  play.pending = false;
  try {
    const state = await api('/api/state', request(play.moves.slice(0, play.view)));
    if (gen !== play.gen) return;
    play.state = state;
    play.error = null;
  } catch (e) {
    if (gen !== play.gen) return;
    play.error = e.message;
  }
  render();
  maybeAgent();
  maybeAnalyse();
}

function seedFor(ply) {
  const text = $('seed').value.trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text) + ply; // reproducible, and a different stream for each move
}

async function maybeAgent() {
  const state = play.state;
  if (!state || state.outcome || play.thinking || play.editing || !atEnd()) return;
  if (play.clock && play.clock.flagged !== null) return;
  const side = state.to_move === 'first' ? 0 : 1;
  const spec = sideSpec(side);
  if (spec === null) {
    startHumanClock();
    return;
  }
  play.gen += 1;
  const gen = play.gen;
  const ctl = new AbortController();
  play.agentCtl = ctl;
  play.thinking = true;
  render();
  try {
    const body = request(play.moves, { agent: spec });
    const seed = seedFor(state.ply);
    if (seed !== undefined) body.seed = seed;
    if (play.clock) body.clock = { remaining: play.clock.left[side], increment: play.clock.inc };
    const answer = await api('/api/move', body, ctl.signal);
    if (gen !== play.gen) return;
    chargeClock(side, answer.elapsed_ms / 1000);
    play.why = answer;
    play.moves = answer.state.moves;
    play.view = play.moves.length;
    play.state = answer.state;
    play.error = null;
    const who = state.players[side];
    play.announce = answer.move === 'PA' ? `${who} passes` : `${who} played ${answer.move}`;
  } catch (e) {
    if (gen === play.gen) play.error = e.message;
    return;
  } finally {
    if (gen === play.gen) {
      play.thinking = false;
      play.agentCtl = null;
      render();
    }
  }
  maybeAnalyse();
  // Agent against agent: a short pause so that people can follow.
  const [h0, h1] = humans();
  setTimeout(() => { if (gen === play.gen) maybeAgent(); }, h0 || h1 ? 0 : 350);
}

function humanTurn() {
  const state = play.state;
  if (!state || state.outcome || play.thinking || play.pending || play.editing) return false;
  if (play.clock && play.clock.flagged !== null) return false;
  return sideSpec(state.to_move === 'first' ? 0 : 1) === null;
}

// A human plays `mv` (any spelling the server reads) in the shown position; a move played
// while looking at an earlier position of the record replaces what followed it.
async function humanMove(mv) {
  const state = play.state;
  if (!humanTurn()) return;
  const side = state.to_move === 'first' ? 0 : 1;
  if (play.clock && play.clock.flagged !== null) return;
  const thought = play.clock && play.clock.since !== null ? (performance.now() - play.clock.since) / 1000 : 0;
  play.gen += 1;
  const gen = play.gen;
  const moves = play.moves.slice(0, play.view).concat([mv]);
  play.pending = true;
  render(); // no more clicks until the server has answered
  let next;
  try {
    next = await api('/api/state', request(moves));
  } catch (e) {
    if (gen !== play.gen) return;
    play.pending = false;
    play.error = e.message;
    render();
    return;
  }
  if (gen !== play.gen) return;
  if (play.clock) chargeClock(side, thought);
  play.moves = next.moves;
  play.view = play.moves.length;
  play.state = next;
  play.pending = false;
  play.why = null;
  play.error = null;
  const played = next.moves[next.moves.length - 1];
  play.announce = played === 'PA' ? `${state.players[side]} passes` : `${state.players[side]} played ${played}`;
  render();
  maybeAgent();
  maybeAnalyse();
}

async function undo() {
  if (play.view === 0) return;
  dropAgent();
  play.gen += 1;
  const gen = play.gen;
  play.pending = false;
  play.why = null;
  play.announce = '';
  const [h0, h1] = humans();
  let moves = play.moves.slice(0, play.view);
  // Back to the last position where a human is to move (or one move back without humans).
  for (;;) {
    moves = moves.slice(0, -1);
    let state;
    try {
      state = await api('/api/state', request(moves));
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
  play.view = moves.length;
  render();
  maybeAgent();
  maybeAnalyse();
}

// ---------------------------------------------------------------- analysis

function analysisTime() {
  return Number($('analyse-time').value) || Math.min(1, THINK);
}

function cancelAnalysis() {
  if (play.analysisCtl) play.analysisCtl.abort();
  play.analysisCtl = null;
  play.analysis = null;
  play.analysisKey = null;
  play.analysisError = null;
}

// Analyses the shown position when analysis is on; a request for another position is
// aborted (the server then stops its search).
function maybeAnalyse() {
  const key = shownKey();
  if (!$('analyse').checked || play.editing || !play.state || play.state.ply !== play.view) {
    if (play.analysisKey !== null) {
      cancelAnalysis();
      renderAnalysis();
    }
    return;
  }
  if (play.analysisKey === key) return;
  cancelAnalysis();
  play.analysisKey = key;
  const known = play.evals.get(key);
  if (known && known.time >= analysisTime()) {
    play.analysis = known;
    render();
    return;
  }
  const ctl = new AbortController();
  play.analysisCtl = ctl;
  renderAnalysis();
  api('/api/analyse', request(play.moves.slice(0, play.view), { time: analysisTime() }), ctl.signal)
    .then((a) => {
      if (play.analysisCtl !== ctl) return;
      play.analysisCtl = null;
      play.analysis = a;
      play.evals.set(key, a);
      render();
    })
    .catch((e) => {
      if (ctl.signal.aborted || play.analysisCtl !== ctl) return;
      play.analysisCtl = null;
      play.analysisError = e.message;
      renderAnalysis();
    });
}

// "Analyse game": every position of the record in turn, for the graph.
async function analyseGame() {
  if (play.scan) {
    stopScan();
    renderAnalysis();
    return;
  }
  const ctl = new AbortController();
  play.scan = ctl;
  const [game, start, line] = [play.game, play.start, play.moves.slice()];
  const time = analysisTime();
  renderAnalysis();
  for (let ply = 0; ply <= line.length; ply += 1) {
    const key = keyOf(game, start, line.slice(0, ply));
    if (play.evals.has(key)) continue;
    const body = { game, moves: line.slice(0, ply), time };
    if (start) body.start = start;
    $('scan-status').textContent = `analysing position ${ply} of ${line.length}…`;
    try {
      play.evals.set(key, await api('/api/analyse', body, ctl.signal));
    } catch (e) {
      if (!ctl.signal.aborted) $('scan-status').textContent = `Error: ${e.message}`;
      break;
    }
    if (ctl.signal.aborted) break;
    renderGraph();
  }
  if (play.scan === ctl) {
    play.scan = null;
    $('scan-status').textContent = 'the whole game is analysed';
  }
  renderAnalysis();
}

function valueKind(v) {
  return {
    estimate: `estimate at depth ${v.depth}`,
    exact: 'solved exactly',
    wld: 'solved for win, draw or loss only',
    result: 'exact result from the game tree',
  }[v.kind];
}

function valueTitle(v) {
  return `${v.text} (${valueKind(v)})`;
}

function renderAnalysis() {
  const box = $('analysis');
  box.replaceChildren();
  $('analyse-game').textContent = play.scan ? 'Stop analysing' : 'Analyse game';
  if (!$('analyse').checked) {
    renderGraph();
    return;
  }
  if (play.analysisCtl) box.append(el('div', { id: 'analysis-running', text: `analysing (up to ${analysisTime()} s)…` }));
  if (play.analysisError) box.append(el('div', { class: 'error', text: `Analysis failed: ${play.analysisError}` }));
  const a = play.analysis;
  if (a) {
    const names = play.state ? play.state.players : ['first', 'second'];
    const mover = names[a.to_move === 'first' ? 0 : 1];
    if (a.value) {
      box.append(el('div', { id: 'analysis-value' },
        `${mover} to move: `, el('strong', { class: `value-${a.value.kind}`, text: a.value.text }),
        ` ${a.unit === 'discs' && a.value.kind !== 'wld' ? 'discs ' : ''}(${valueKind(a.value)})`));
    }
    if (a.line.length) box.append(el('div', { id: 'best-line' }, 'Best line: ', el('code', { text: a.line.join(' ') })));
    box.append(el('div', { class: 'meta', text: `${a.analyst}, ${fmt(a.elapsed_ms / 1000)} s${a.stopped ? `, stopped (${a.stopped})` : ''}` }));
    for (const n of a.notes) box.append(el('div', { class: 'meta', text: n }));
  }
  renderGraph();
}

// The evaluation graph: the analysed value of the position after each move, from the first
// player's side (drawn as SVG).
function renderGraph() {
  const holder = $('graph');
  holder.replaceChildren();
  const g = info();
  const n = play.moves.length;
  const points = [];
  for (let ply = 0; ply <= n; ply += 1) {
    const a = play.evals.get(keyOf(play.game, play.start, play.moves.slice(0, ply)));
    if (a && a.value_first !== null && a.value_first !== undefined) points.push({ ply, v: a.value_first, kind: a.value.kind, text: a.value.text });
  }
  if (!points.length) {
    holder.append(el('p', { class: 'meta', text: 'Evaluation graph: turn on analysis or press "Analyse game".' }));
    return;
  }
  const [w, h, pad] = [360, 150, 24];
  let range = 1;
  if (g.unit === 'discs') {
    range = 4;
    for (const p of points) if (p.kind !== 'wld') range = Math.max(range, Math.abs(p.v));
    range = Math.min(64, Math.ceil(range));
  }
  const x = (ply) => pad + (n ? (ply / n) * (w - 2 * pad) : 0);
  const y = (v, kind) => {
    const u = kind === 'wld' ? Math.sign(v) * range : Math.max(-range, Math.min(range, v));
    return h / 2 - (u / range) * (h / 2 - 12);
  };
  const names = GAMES[play.game].players;
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', 'aria-label': `evaluation graph: ${points.length} positions analysed` });
  svg.append(svgEl('rect', { x: 0, y: 0, width: w, height: h / 2, class: 'graph-first' }));
  svg.append(svgEl('rect', { x: 0, y: h / 2, width: w, height: h / 2, class: 'graph-second' }));
  svg.append(svgEl('line', { x1: pad, x2: w - pad, y1: h / 2, y2: h / 2, class: 'graph-axis' }));
  svg.append(svgEl('text', { x: 4, y: 12, class: 'graph-label', text: `${names[0]} +${range}` }));
  svg.append(svgEl('text', { x: 4, y: h - 4, class: 'graph-label', text: `${names[1]} +${range}` }));
  svg.append(svgEl('line', { x1: x(play.view), x2: x(play.view), y1: 0, y2: h, class: 'graph-now' }));
  let path = '';
  let prev = false;
  for (const p of points) {
    path += `${prev ? 'L' : 'M'}${x(p.ply).toFixed(1)},${y(p.v, p.kind).toFixed(1)} `;
    prev = true;
  }
  svg.append(svgEl('path', { d: path, class: 'graph-line' }));
  for (const p of points) {
    const dot = svgEl('circle', {
      cx: x(p.ply).toFixed(1), cy: y(p.v, p.kind).toFixed(1), r: 3.5,
      class: `graph-dot ${p.kind}`, 'data-ply': p.ply,
      onclick: () => show(p.ply),
    }, svgEl('title', { text: `after move ${p.ply}: ${p.v > 0 ? '+' : ''}${fmt(p.v)} for ${names[0]} (${p.kind})` }));
    svg.append(dot);
  }
  holder.append(svg);
  renderLoss(holder);
}

// The disc-loss graph and table (games valued in discs): for each move whose position is
// analysed, the loss the server's analysis gave the played move (the best move's value minus
// the played move's, never negative), summed per side. Win/loss/draw values are not discs
// and are left out, as `yomi analyse` does.
function renderLoss(holder) {
  if (info().unit !== 'discs') return;
  const names = GAMES[play.game].players;
  const rows = [];
  const total = { first: 0, second: 0 };
  const lines = { first: [{ ply: 0, v: 0 }], second: [{ ply: 0, v: 0 }] };
  for (let ply = 0; ply < play.moves.length; ply += 1) {
    const a = play.evals.get(keyOf(play.game, play.start, play.moves.slice(0, ply)));
    if (!a || !a.value || !a.moves.length) continue;
    const played = a.moves.find((m) => m.move === play.moves[ply]);
    // The server's analysis library gives each move's loss (null for win/loss/draw values
    // and upper bounds, which are not disc values).
    if (!played || played.loss === null || played.loss === undefined) continue;
    const loss = played.loss;
    total[a.to_move] += loss;
    lines[a.to_move].push({ ply: ply + 1, v: total[a.to_move] });
    rows.push({ ply, side: a.to_move, move: played.move, value: played.value, best: a.best[0], bestValue: a.value, loss });
  }
  if (!rows.length) return;
  const n = play.moves.length;
  const [w, h, pad] = [360, 110, 24];
  const top = Math.max(4, Math.ceil(Math.max(total.first, total.second)));
  const x = (ply) => pad + (n ? (ply / n) * (w - 2 * pad) : 0);
  const y = (v) => h - 12 - (v / top) * (h - 24);
  const svg = svgEl('svg', { id: 'loss-graph', viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', 'aria-label': `disc-loss graph: ${rows.length} moves valued; ${names[0]} lost ${fmt(total.first)}, ${names[1]} ${fmt(total.second)} discs` });
  svg.append(svgEl('line', { x1: pad, x2: w - pad, y1: y(0), y2: y(0), class: 'graph-axis' }));
  svg.append(svgEl('text', { x: 4, y: 12, class: 'graph-label', text: `discs lost, up to ${top}` }));
  svg.append(svgEl('line', { x1: x(play.view), x2: x(play.view), y1: 0, y2: h, class: 'graph-now' }));
  for (const side of ['first', 'second']) {
    const path = lines[side].map((p, i) => `${i ? 'L' : 'M'}${x(p.ply).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
    svg.append(svgEl('path', { d: path, class: `loss-line loss-${side}` }, svgEl('title', { text: `${names[side === 'first' ? 0 : 1]}: ${fmt(total[side])} discs lost` })));
  }
  holder.append(svg);
  holder.append(el('div', { class: 'meta', id: 'loss-total', text: `discs lost: ${names[0]} ${fmt(total.first)}, ${names[1]} ${fmt(total.second)}` }));
  const table = el('table', { id: 'loss-table' },
    el('tr', {}, ...['move', 'side', 'played', 'value', 'best', 'value', 'loss'].map((t) => el('th', { text: t }))));
  for (const r of rows) {
    const tr = el('tr', { 'data-ply': r.ply + 1, class: r.loss > 0 ? 'lost' : '', onclick: () => show(r.ply) },
      el('td', { text: String(r.ply + 1) }),
      el('td', { text: names[r.side === 'first' ? 0 : 1] }),
      el('td', { text: r.move }),
      el('td', { text: r.value.text }),
      el('td', { text: r.best }),
      el('td', { text: r.bestValue.text }),
      el('td', { class: 'loss', text: fmt(r.loss) }));
    table.append(tr);
  }
  holder.append(table);
}

// ---------------------------------------------------------------- records

async function exportRecord() {
  const status = $('record-status');
  try {
    const e = await api('/api/export', request(play.moves, { format: $('record-format').value }));
    $('record-text').value = e.text;
    status.className = '';
    status.textContent = e.start ? `exported ${play.moves.length} moves, played from the set-up position ${e.start}` : `exported ${play.moves.length} moves`;
  } catch (err) {
    status.className = 'error';
    status.textContent = `Export failed: ${err.message}`;
  }
}

async function importRecord() {
  const status = $('record-status');
  const body = { game: play.game, text: $('record-text').value, format: $('record-format').value };
  if (play.start && body.format === 'line') body.start = play.start;
  // A new message for every attempt, so an earlier refusal is never mistaken for this one's.
  status.className = '';
  status.textContent = 'importing…';
  let state;
  try {
    state = await api('/api/import', body);
  } catch (err) {
    status.className = 'error';
    status.textContent = `Import refused: ${err.message}`;
    return;
  }
  status.className = '';
  status.textContent = `imported ${state.moves.length} moves`;
  const start = state.start === info().start ? null : state.start;
  await newGame(start, state.moves);
}

// ---------------------------------------------------------------- position editor

function openEditor() {
  const state = play.state;
  if (!state) return;
  stopScan();
  cancelAnalysis();
  dropAgent();
  play.gen += 1; // drops the answers in flight
  play.pending = false;
  const setup = info().setup;
  if (setup.kind === 'grid') {
    play.editing = {
      cells: state.board.cells.map((c) => (c === null ? 0 : c === 'first' ? 1 : 2)),
      side: state.to_move === 'first' ? 0 : 1,
    };
  } else {
    play.editing = { stones: state.board.left, side: state.to_move === 'first' ? 0 : 1 };
  }
  $('edit-status').textContent = '';
  render();
  $('edit-text').value = editorPosition();
}

function editorPosition() {
  const setup = info().setup;
  const e = play.editing;
  if (setup.kind === 'grid') {
    const cells = e.cells.map((c) => setup.pieces[c]).join('');
    return setup.side ? `${cells} ${setup.side[e.side]}` : cells;
  }
  return `${e.stones}:${e.side === 0 ? 'first' : 'second'}`;
}

async function editorDone() {
  const position = $('edit-text').value.trim();
  const status = $('edit-status');
  let state;
  try {
    state = await api('/api/state', { game: play.game, start: position });
  } catch (err) {
    status.className = 'error';
    status.textContent = `Refused: ${err.message}`;
    return;
  }
  status.className = '';
  status.textContent = '';
  await newGame(state.start === info().start ? null : state.start, []);
}

function renderEditor() {
  const box = $('editor');
  box.hidden = !play.editing;
  $('edit').disabled = !!play.editing;
  if (!play.editing) return;
  const setup = info().setup;
  const names = info().players;
  const e = play.editing;
  const controls = $('editor-controls');
  controls.replaceChildren();
  if (setup.kind === 'stones') {
    const input = el('input', { id: 'edit-stones', type: 'number', min: 0, max: setup.most, value: e.stones, 'aria-label': 'stones' });
    input.addEventListener('change', () => { e.stones = Number(input.value); render(); $('edit-text').value = editorPosition(); });
    controls.append(el('label', {}, 'Stones ', input));
  }
  if (setup.kind === 'stones' || setup.side) {
    const side = el('select', { id: 'edit-side', 'aria-label': 'side to move' },
      el('option', { value: '0', text: `${names[0]} to move` }), el('option', { value: '1', text: `${names[1]} to move` }));
    side.value = String(e.side);
    side.addEventListener('change', () => { e.side = Number(side.value); $('edit-text').value = editorPosition(); });
    controls.append(side);
  } else {
    controls.append(el('span', { class: 'meta', text: 'the side to move follows from the marks' }));
  }
  if (setup.kind === 'grid') {
    controls.append(el('button', { type: 'button', id: 'edit-clear', onclick: () => { e.cells = e.cells.map(() => 0); render(); $('edit-text').value = editorPosition(); } }, 'Clear'));
  }
  controls.append(el('button', { type: 'button', id: 'edit-standard', onclick: async () => {
    const s = await api('/api/state', { game: play.game });
    play.editing = null;
    play.state = s;
    openEditor();
  } }, 'Standard start'));
}

// ---------------------------------------------------------------- drawing

function cellBoard(state, why) {
  const g = info();
  const b = state.board;
  const co = g.coordinates;
  const names = state.players;
  const editing = play.editing;
  const turn = humanTurn();
  const grid = el('div', { class: `grid look-${g.look}${editing ? ' editing' : ''}`, id: 'grid', role: 'group', 'aria-label': `${g.title} board` });
  grid.style.gridTemplateColumns = `auto repeat(${b.width}, var(--cell))`;
  const byCell = new Map();
  for (const m of state.legal) if (m.cell !== null) byCell.set(m.cell, m.move);
  const values = new Map();
  const a = play.analysis && !editing ? play.analysis : null;
  if (a) for (const m of a.moves) if (m.cell !== null) values.set(m.cell, m);
  // The book's values where the analysis shows none; the agent's scores where neither does.
  const book = new Map();
  const bk = !a && !editing ? shownBook(state) : null;
  if (bk) for (const m of bk.moves) if (m.cell !== null) book.set(m.cell, m);
  const scores = new Map();
  if (why && !a && !bk) for (const m of why.moves) if (m.cell !== null) scores.set(m.cell, m);
  const last = state.last || { cell: null, changed: [] };
  grid.append(el('span', { class: 'coord corner' }));
  for (let c = 0; c < b.width; c += 1) grid.append(el('span', { class: 'coord col', text: co ? co.columns[c] : '' }));
  for (let r = 0; r < b.height; r += 1) {
    grid.append(el('span', { class: 'coord row', text: co ? co.rows[r] : '' }));
    for (let c = 0; c < b.width; c += 1) {
      const i = r * b.width + c;
      const name = co ? co.cells[i] : String(i);
      const owner = editing ? [null, 'first', 'second'][editing.cells[i]] : b.cells[i];
      const mv = byCell.get(i);
      const clickable = editing || (turn && mv !== undefined);
      const classes = ['cell'];
      if (!editing && turn && mv !== undefined) classes.push('legal');
      if (!editing && i === last.cell) classes.push('last');
      if (!editing && last.changed.includes(i)) classes.push('flipped');
      const cell = el('button', {
        type: 'button',
        class: classes.join(' '),
        'data-cell': i,
        'data-name': name,
        'data-move': editing ? null : mv,
        'aria-label': `${name}${owner ? ` ${names[owner === 'first' ? 0 : 1]}` : ' empty'}${i === last.cell && !editing ? ', last move' : ''}`,
        onclick: clickable ? () => {
          if (play.editing) {
            play.editing.cells[i] = (play.editing.cells[i] + 1) % 3;
            render();
            $('edit-text').value = editorPosition();
          } else humanMove(mv);
        } : null,
      });
      if (owner) {
        if (g.look === 'discs') cell.append(el('span', { class: `disc ${owner}` }));
        else cell.append(el('span', { class: `mark ${owner}`, text: owner === 'first' ? 'O' : 'X' }));
      }
      const v = values.get(i);
      if (v) {
        cell.append(el('span', {
          class: `value ${v.value.kind}${a.best.includes(v.move) ? ' best' : ''}`,
          text: v.value.text,
          title: `${v.move}: ${valueTitle(v.value)}`,
        }));
      }
      const k = book.get(i);
      if (k) {
        cell.append(el('span', {
          class: `value book${k.best ? ' best' : ''}`,
          text: k.text,
          title: `${k.move}: book ${bookMoveTitle(k)}`,
        }));
      }
      const s = scores.get(i);
      if (s) {
        cell.append(el('span', {
          class: `score${why.best.includes(s.move) ? ' best' : ''}${why.chosen === s.move ? ' chosen' : ''}`,
          text: fmt(s.score),
          title: `${s.move}: score ${s.score}${s.note ? ` [${s.note}]` : ''}`,
        }));
      }
      grid.append(cell);
    }
  }
  return grid;
}

function stoneBoard(state) {
  const b = state.board;
  const editing = play.editing;
  const left = editing ? Math.max(0, Math.min(b.total, editing.stones || 0)) : b.left;
  const pile = el('div', { class: 'pile', id: 'pile', 'aria-label': `${left} stones` });
  const just = new Set(editing || !state.last ? [] : state.last.changed);
  for (let i = 0; i < b.total; i += 1) {
    const taken = i >= left;
    pile.append(el('div', { class: `stone${taken ? ' taken' : ''}${just.has(i) ? ' just' : ''}`, title: `stone ${i + 1}` }, el('span', { text: i + 1 })));
  }
  return el('div', {}, pile, el('div', { text: `${left} stones left; take 1 to 3, taking the last stone wins.` }));
}

function render() {
  const state = play.state;
  const status = $('status');
  status.className = '';
  status.removeAttribute('data-outcome');
  $('board').replaceChildren();
  $('actions').replaceChildren();
  renderEditor();
  if (!state) {
    status.textContent = play.error || 'loading…';
    return;
  }
  const names = state.players;
  const [h0, h1] = humans();
  const toMove = state.to_move === 'first' ? 0 : 1;
  const turn = humanTurn();
  let text;
  if (play.editing) {
    text = 'Set up a position: click a square to change it, then press "Play from here".';
  } else if (state.outcome) {
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
  } else if (turn) {
    text = state.must_pass ? `${names[toMove]} has no move and must pass.` : `${names[toMove]} to move: your turn.`;
  } else {
    text = `${names[toMove]} to move.`;
  }
  if (play.clock && play.clock.flagged !== null && !state.outcome && !play.editing) {
    const out = play.clock.flagged;
    status.className = 'over';
    status.dataset.outcome = out === 0 ? 'second' : 'first';
    text = `${names[out]} is out of time: ${names[1 - out]} wins on time.`;
  }
  if (play.announce && atEnd() && !play.editing) text = `${play.announce}. ${text}`;
  if (!atEnd() && !play.editing) text = `Move ${play.view} of ${play.moves.length}. ${text}`;
  if (play.error) {
    status.className = 'error';
    text = `${text} Error: ${play.error}`;
  }
  status.textContent = text;
  if (state.board.kind === 'grid' && !play.editing) status.textContent += `  (${names[0]} ${state.board.counts[0]}, ${names[1]} ${state.board.counts[1]})`;

  const why = $('show-why').checked && play.why && atEnd() ? play.why.explanation : null;
  $('board').append(state.board.kind === 'grid' ? cellBoard(state, why) : stoneBoard(state));

  // Moves that are not on a cell: takes and passes.
  if (!play.editing) {
    const a = play.analysis;
    for (const m of state.legal) {
      if (m.cell !== null) continue;
      const label = m.move === 'PA' ? 'Pass' : `Take ${m.move}`;
      const button = el('button', {
        type: 'button', 'data-move': m.move, disabled: !turn, onclick: () => humanMove(m.move),
      }, label);
      const v = a ? a.moves.find((x) => x.move === m.move) : null;
      if (v) button.append(el('span', { class: `value ${v.value.kind}${a.best.includes(m.move) ? ' best' : ''}`, text: v.value.text, title: valueTitle(v.value) }));
      const s = why && !a ? why.moves.find((x) => x.move === m.move) : null;
      if (s) button.append(el('span', { class: `score${why.best.includes(s.move) ? ' best' : ''}${why.chosen === s.move ? ' chosen' : ''}`, text: fmt(s.score) }));
      $('actions').append(button);
    }
  }

  const history = $('history');
  history.replaceChildren();
  const entry = (ply, label) => el('li', {}, el('button', {
    type: 'button', class: `ply${ply === play.view ? ' current' : ''}`, 'data-ply': ply,
    'aria-current': ply === play.view ? 'step' : null, onclick: () => show(ply),
  }, label));
  history.append(entry(0, play.start ? 'set-up start' : 'start'));
  // Sides alternate every ply (a pass is a ply); a set-up start may have either side to move.
  let side = startSide();
  play.moves.forEach((mv, i) => {
    history.append(entry(i + 1, `${i + 1}. ${names[side]} ${mv}`));
    side = 1 - side;
  });
  renderWhy();
  renderAnalysis();
  renderBook();
}

// The book's view of the shown position when the book is shown (null otherwise).
function shownBook(state) {
  return BOOK && $('show-book').checked && state ? state.book : null;
}

function bookMoveTitle(m) {
  const depth = m.depth === 'exact' ? 'solved exactly' : `depth ${m.depth}`;
  return m.leaf ? `${m.text} (the leaf: its position is not in the book; ${depth})`
    : `${m.text} (${depth}, ${m.lines} line${m.lines === 1 ? '' : 's'})`;
}

// The opening book panel: the shown position's book moves, or that it is not in the book.
function renderBook() {
  const box = $('book');
  box.replaceChildren();
  const state = play.state;
  box.hidden = !BOOK || !$('show-book').checked || play.editing || !state || play.game !== 'othello';
  if (box.hidden) return;
  box.append(el('h3', { text: `Opening book (${BOOK.name}, ${BOOK.positions} positions)` }));
  const b = state.book;
  if (!b) {
    box.append(el('div', { class: 'meta', id: 'book-out', text: 'The position is not in the book.' }));
    return;
  }
  const mover = state.players[state.to_move === 'first' ? 0 : 1];
  box.append(el('div', { id: 'book-value' }, `${mover} to move: `, el('strong', { text: `${b.value > 0 ? '+' : ''}${b.value}` }),
    ` discs (${b.depth === 'exact' ? 'solved exactly' : `depth ${b.depth}`}), ${b.lines} line${b.lines === 1 ? '' : 's'} through it`));
  const table = el('table', {}, el('tr', {}, el('th', { text: 'move' }), el('th', { text: 'value' }), el('th', { text: 'depth' }), el('th', { text: 'lines' })));
  for (const m of b.moves) {
    table.append(el('tr', { class: m.best ? 'best' : '', 'data-move': m.move },
      el('td', { text: m.move }), el('td', { text: m.text }), el('td', { text: m.depth }),
      el('td', { text: m.leaf ? 'leaf' : String(m.lines) })));
  }
  box.append(table);
  if (!BOOK.builtin_weights) box.append(el('div', { class: 'meta', text: `its values come from other evaluation weights (digest ${BOOK.weights}) than the built-in ones` }));
  box.append(el('div', { class: 'meta', text: 'othello:book=server plays from this book.' }));
}

// Who moved first in the record: from the shown position's side and ply.
function startSide() {
  const state = play.state;
  const toMove = state.to_move === 'first' ? 0 : 1;
  return play.view % 2 === 0 ? toMove : 1 - toMove;
}

function renderWhy() {
  const box = $('why');
  box.replaceChildren();
  if (!play.why || !atEnd()) return;
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

function playKey(event) {
  if ($('play').hidden || typing(event) || play.editing) return;
  switch (event.key) {
    case 'ArrowLeft': show(play.view - 1); break;
    case 'ArrowRight': show(play.view + 1); break;
    case 'Home': show(0); break;
    case 'End': show(play.moves.length); break;
    default: return;
  }
  event.preventDefault();
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
  for (const t of document.querySelectorAll('.tab')) {
    t.classList.toggle('active', t.dataset.tab === name);
    t.setAttribute('aria-selected', t.dataset.tab === name ? 'true' : 'false');
  }
  $('play').hidden = name !== 'play';
  $('tree').hidden = name !== 'tree';
  if (name === 'tree' && !tree.view) loadTree();
}

function fillTimes() {
  const select = $('analyse-time');
  const times = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30].filter((t) => t <= THINK);
  if (!times.includes(THINK)) times.push(THINK);
  select.replaceChildren(...times.map((t) => el('option', { value: t, text: `${t} s` })));
  select.value = String(Math.min(1, THINK));
}

async function start() {
  let data;
  try {
    data = await api('/api/games');
  } catch (e) {
    $('status').textContent = `Cannot reach the server: ${e.message}`;
    return;
  }
  THINK = data.think_time;
  BOOK = data.book;
  $('book-toggle').hidden = !BOOK;
  for (const g of data.games) GAMES[g.id] = g;
  const game = $('game');
  for (const g of data.games) game.append(el('option', { value: g.id, text: g.title }));
  // A link may name the game: /#nim, /#othello.
  const wanted = location.hash.slice(1);
  if (GAMES[wanted]) play.game = wanted;
  game.value = play.game;
  const treeGame = $('tree-game');
  for (const g of data.games.filter((g) => g.tree)) treeGame.append(el('option', { value: g.id, text: g.title }));
  treeGame.value = tree.game;
  fillSides();
  fillTimes();
  fillTreeData();

  game.addEventListener('change', () => { play.game = game.value; cancelAnalysis(); fillSides(); newGame(); });
  for (const i of [0, 1]) {
    const box = $(`side-${i}`);
    box.querySelector('.kind').addEventListener('change', () => { onKind(i); render(); maybeAgent(); });
    box.querySelector('.spec').addEventListener('change', () => { syncLevel(i); render(); maybeAgent(); });
    box.querySelector('.level-select').addEventListener('change', () => { onLevel(i); render(); maybeAgent(); });
  }
  $('restart').addEventListener('click', () => newGame());
  $('clock').addEventListener('change', () => newGame(play.start));
  $('undo').addEventListener('click', undo);
  $('show-why').addEventListener('change', render);
  $('show-book').addEventListener('change', render);
  $('analyse').addEventListener('change', () => { if (!$('analyse').checked) cancelAnalysis(); maybeAnalyse(); render(); });
  $('analyse-time').addEventListener('change', () => { cancelAnalysis(); maybeAnalyse(); render(); });
  $('analyse-game').addEventListener('click', analyseGame);
  $('export').addEventListener('click', exportRecord);
  $('import').addEventListener('click', importRecord);
  $('edit').addEventListener('click', openEditor);
  $('edit-done').addEventListener('click', editorDone);
  $('edit-cancel').addEventListener('click', () => { play.editing = null; show(play.view); });
  $('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('move-input').value.trim();
    if (!text) return;
    $('move-input').value = '';
    humanMove(text).then(() => $('move-input').focus());
  });
  for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => showTab(t.dataset.tab));
  treeGame.addEventListener('change', () => { tree.game = treeGame.value; tree.moves = []; tree.selected = -1; fillTreeData(); loadTree(); });
  $('tree-data').addEventListener('change', loadTree);
  $('tree-alpha').addEventListener('change', loadTree);
  document.addEventListener('keydown', treeKey);
  document.addEventListener('keydown', playKey);
  if (location.hash === '#tree') showTab('tree');
  newGame();
}

start();
