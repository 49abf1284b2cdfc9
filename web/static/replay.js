// The replay view (/replay, issue 27): load a deal record, step through it, value the legal
// cards (/api/replay/hint), try another card (/api/replay/line).  The whole state lives in
// the URL's hash: #d=DEAL&s=STEP&r=RECORD, RECORD = "z" + base64url(deflate-raw(text)) (or
// "t" + base64url(text) where the browser has no CompressionStream), so a reload or a
// shared link restores the view.  The server keeps nothing.  A game with a stock (V7,
// binokel-2; the load answer says "stock": true) steps decision by decision: cards, the
// winner's meld or none (V7.3), a claim (V7.5); its cards are tokens like KS/p (the K♠
// shown in a pair), its values are own-minus-opponent points from the player's view.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", "black"], S: ["♠", "black"], H: ["♥", "red"], D: ["♦", "red"] };
const S = { text: "", deal: 1, data: null, step: 0, values: null, line: null, seq: 0, cfg: null };
const AUTO_DELAY_MS = 300;
const KINDS = { d: "Dissle", p: "pair", q: "quint major", k: "of a kind", b: "binokel" };

// ---- the URL: compact record + step -----------------------------------------------------

function b64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function unb64url(s) {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}
async function encodeRecord(text) {
  const raw = new TextEncoder().encode(text);
  if (typeof CompressionStream === "undefined") return "t" + b64url(raw);
  return "z" + b64url(await pipe(raw, new CompressionStream("deflate-raw")));
}
async function decodeRecord(s) {
  const bytes = unb64url(s.slice(1));
  if (s[0] === "z") return new TextDecoder().decode(await pipe(bytes, new DecompressionStream("deflate-raw")));
  if (s[0] === "t") return new TextDecoder().decode(bytes);
  throw new Error("the link's record is neither z (compressed) nor t (plain)");
}
let hashRecord = { text: null, code: null };
async function writeHash() {
  if (!S.data) return;
  if (hashRecord.text !== S.text) hashRecord = { text: S.text, code: await encodeRecord(S.text) };
  const h = `#d=${S.deal}&s=${S.step}&r=${hashRecord.code}`;
  if (location.hash !== h) history.replaceState(null, "", h);
}
function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { r: p.get("r"), s: parseInt(p.get("s") || "0", 10) || 0, d: parseInt(p.get("d") || "1", 10) || 1 };
}

// ---- API --------------------------------------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  let j;
  try { j = await r.json(); } catch (e) { throw new Error(`${path}: HTTP ${r.status}`); }
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j;
}
function showError(msg) {
  const e = $("rp-error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

// ---- cards ------------------------------------------------------------------------------

function cardEl(code, opts = {}) {
  const [card, kinds] = code.split("/");
  const suit = card.slice(-1), rank = card.slice(0, -1);
  const el = document.createElement(opts.button ? "button" : "span");
  if (opts.button) el.type = "button";
  el.className = `card ${SUITS[suit][1]}`;
  el.dataset.card = code;
  const face = document.createElement("span");
  face.className = "face";
  face.textContent = rank + SUITS[suit][0];
  el.append(face);
  if (kinds) {            // shown face up in a meld of these kinds (V7.3)
    el.classList.add("shown");
    const k = document.createElement("span");
    k.className = "kinds";
    k.textContent = kinds;
    k.title = "shown: " + [...kinds].map((x) => KINDS[x] || x).join(", ");
    el.append(k);
  }
  el.setAttribute("aria-label", code);
  return el;
}
// an action's label with suit symbols: "meld pair D 20: KD QD" -> "meld pair D 20: K♦ Q♦"
function pretty(label) {
  return label.replace(/\b(10|[AKQJ79])([CSHD])\b/g, (m, r, su) => r + SUITS[su][0]);
}
function seatName(s) {
  const d = S.data, n = d.seats[s];
  if (s === d.soloist) return `${n} (soloist)`;
  if (d.units.length === 2 && d.soloist !== null && d.unit_of_seat[s] === d.unit_of_seat[d.soloist]) return `${n} (partner)`;
  return n;
}
function fx(x, k = 1) { return x === null || x === undefined || Number.isNaN(x) ? "–" : Number(x).toFixed(k); }
function sg(x) { return x === null || x === undefined ? "–" : (x > 0 ? "+" : "") + x; }

// ---- load -------------------------------------------------------------------------------

async function loadRecord(text, deal = 1, step = 0) {
  showError("");
  const data = await api("/api/replay/load", { record: text, deal });
  S.text = text; S.deal = deal; S.data = data;
  $("rp-text").value = text;
  $("rp-save").disabled = false;
  $("rp-view").hidden = false;
  $("rp-slider").max = String(data.steps.length - 1);
  const c = data.stock ? data.trump : data.contract;
  const trump = c && SUITS[c] ? `trump ${SUITS[c][0]}` : (c || "no contract");
  const parts = [data.game, trump];
  if (data.stock) {
    parts.push(`turned ${pretty(data.turned)}`);
    if (data.before.some((x) => x)) parts.push(`game score before ${data.before.join(":")}`);
    if (!data.stock_known) parts.push("stock hidden: no lines");
  }
  if (data.soloist !== null) parts.push(`soloist ${data.seats[data.soloist]}`);
  if (data.bid !== null) parts.push(`bid ${data.bid}`);
  if (data.deals > 1) parts.push(`deal ${data.deal} of ${data.deals}`);
  if (!data.all_hands) parts.push("hidden hands: PIMC values only, no lines");
  $("rp-meta").textContent = parts.join(" · ");
  const cfg = data.stock && S.cfg ? S.cfg.stock : S.cfg;
  if (cfg) {
    $("rp-worlds").max = String(cfg.max_worlds);
    if (S.mode !== !!data.stock) $("rp-worlds").value = String(cfg.default_worlds);
  }
  S.mode = !!data.stock;
  document.body.classList.toggle("stock", !!data.stock);
  const sel = $("rp-deal");
  sel.textContent = "";
  for (let k = 1; k <= data.deals; k++) {
    const o = document.createElement("option");
    o.value = String(k);
    o.textContent = `deal ${k} of ${data.deals}`;
    sel.append(o);
  }
  sel.value = String(data.deal);
  sel.hidden = data.deals < 2;
  $("rp-source").open = false;
  await go(Math.max(0, Math.min(step, data.steps.length - 1)));
}

async function go(i) {
  const d = S.data;
  if (!d) return;
  i = Math.max(0, Math.min(i, d.steps.length - 1));
  S.step = i; S.values = null; S.line = null;
  S.seq += 1;
  render();
  $("rp-line").hidden = true;
  await writeHash();
  const st = d.steps[i];
  if (st.to_play !== null && st.legal.length && $("rp-auto").checked) {
    // value once the step has held still a moment: stepping quickly through a deal does
    // not queue a hint per step on the server (PIMC while a stock lasts takes seconds)
    const seq = S.seq;
    setTimeout(() => { if (seq === S.seq) valueCards(); }, AUTO_DELAY_MS);
  } else document.body.dataset.values = "";
}

// ---- render -----------------------------------------------------------------------------

function render() {
  const d = S.data, st = d.steps[S.step];
  const n = d.steps.length - 1;
  $("rp-step").textContent = st.to_play === null ? `step ${S.step}/${n} · deal over`
    : st.phase === "meld" ? `step ${S.step}/${n} · meld after trick ${st.trick}`
    : `step ${S.step}/${n} · trick ${st.trick}, card ${st.card}`;
  $("rp-step").dataset.step = String(S.step);
  $("rp-slider").value = String(S.step);
  $("rp-first").disabled = $("rp-prev").disabled = S.step === 0;
  $("rp-next").disabled = $("rp-last").disabled = S.step === n;
  const vals = {};
  if (S.values) for (const c of valueRows(S.values)) vals[c.key] = c;
  const best = S.values ? bestValue(S.values) : null;
  const table = $("rp-table");
  table.textContent = "";
  for (const s of d.in_play) {
    const row = document.createElement("div");
    row.className = "rp-seat" + (s === st.to_play ? " to-play" : "");
    row.dataset.seat = String(s);
    const head = document.createElement("div");
    head.className = "rp-seat-head small";
    head.textContent = `${seatName(s)} · ${st.points[s]} pts, ${st.won[s]} tricks` + (s === st.to_play ? (st.phase === "meld" ? " · won the trick: meld or pass" : " · to play") : "");
    row.append(head);
    const hand = document.createElement("div");
    hand.className = "rp-hand";
    if (st.hands[s] === null) {
      hand.textContent = "hidden hand";
      hand.classList.add("muted");
    }
    let marked = false;        // of two alike copies the record's is the first (V7.2)
    for (const code of st.hands[s] || []) {
      const legal = s === st.to_play && st.phase !== "meld" && st.legal.includes(code);
      const el = cardEl(code, { button: legal });
      if (legal) {
        el.classList.add("legal");
        const isNext = code === st.next && !marked;
        if (isNext) { el.classList.add("played"); marked = true; }
        el.addEventListener("click", () => tryCard(code));
        paint(el, vals[code], best, isNext);
      } else if (s === st.to_play && st.phase !== "meld") {
        el.classList.add("illegal");
      }
      hand.append(el);
    }
    row.append(hand);
    // a decision that is no card: the winner's meld or none (V7.3), a claim (V7.5)
    const other = s === st.to_play ? st.legal.filter((a) => st.phase === "meld" || a === "claim") : [];
    if (other.length) {
      const acts = document.createElement("div");
      acts.className = "rp-acts";
      for (const a of other) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "rp-act legal";
        b.dataset.card = a;
        b.textContent = pretty(a);
        b.setAttribute("aria-label", a);
        if (a === st.next) b.classList.add("played");
        b.addEventListener("click", () => tryCard(a));
        paint(b, vals[a], best, a === st.next);
        acts.append(b);
      }
      row.append(acts);
    }
    table.append(row);
  }
  if (d.stock) renderStock(st);
  renderTrick(st);
  renderPoints(st);
  renderValues();
}

// a legal card or action: its value (colour: the loss from the best) and its title
function paint(el, v, best, isNext) {
  if (v) {
    el.dataset.value = String(v.value);
    el.style.setProperty("--v", colour(best - v.value));
    const lab = document.createElement("span");
    lab.className = "val";
    lab.textContent = v.exact ? String(v.value) : fx(v.value, 0);
    el.append(lab);
  }
  el.title = (v ? v.title + " " : "")
    + (isNext ? "The record's choice." : "Tap: what would this have changed?");
}

// the hint's rows as {key, value, exact, title}: a stock game's actions (own minus the
// opponent's points to the end of the deal) or the cards of any other (DD where exact)
function valueRows(h) {
  if (h.stock) {
    return h.actions.map((a) => ({
      key: a.action, exact: a.n === "exact", wins: a.wins_game,
      value: a.wins_game ? 1000 : a.diff,
      title: a.wins_game ? "A claim at 1000 or more wins the game (V7.5)."
        : `own − opponent's points from here ${fx(a.diff)} ± ${fx(a.diff_se)} (n = ${a.n}); own ${fx(a.own)}.` }));
  }
  return h.cards.map((c) => ({
    key: c.card, exact: c.dd !== null, value: c.dd !== null ? c.dd : c.points,
    title: `${c.dd !== null ? `DD ${c.dd}; ` : ""}PIMC ${fx(c.points)} ± ${fx(c.points_se)} (n = ${c.n}${c.effective_n != null ? `, effective ${c.effective_n}` : ""}).` }));
}

// the stock (V7.1, V7.2): the turned trump under it, the cards left, the last draws, the
// melds shown so far (V7.3)
function renderStock(st) {
  const d = S.data, box = document.createElement("div");
  box.className = "rp-stock";
  box.id = "rp-stock";
  const pile = document.createElement("div");
  pile.className = "rp-pile";
  const lab = document.createElement("div");
  lab.className = "small muted";
  lab.textContent = st.stock_left ? `stock: ${st.stock_left} cards, the turned trump last` : "the stock is gone: follow suit, else trump (V7.4)";
  pile.append(lab);
  if (st.turned) pile.append(cardEl(st.turned));
  if (st.draws.length) {
    const dr = document.createElement("div");
    dr.className = "small";
    dr.textContent = "drew: " + st.draws.map(([q, c]) => `${d.seats[q]} ${c || "?"}`).join(", ");
    pile.append(dr);
  }
  box.append(pile);
  const ml = document.createElement("div");
  ml.className = "rp-melds small";
  ml.textContent = st.melds.length ? (st.stock_left ? "melds shown:" : "melds shown (the cards are back in the hands):") : "no melds shown yet";
  for (const m of st.melds) {
    const line = document.createElement("div");
    line.textContent = `${d.seats[m.seat]}: ${m.name} ${m.value} `;
    for (const c of m.cards) line.append(cardEl(c));
    ml.append(line);
  }
  box.append(ml);
  $("rp-table").append(box);
}

function renderTrick(st) {
  const box = $("rp-trick");
  box.textContent = "";
  const d = S.data;
  const label = document.createElement("div");
  label.className = "small muted";
  let cards = st.table;
  if (cards.length) {
    label.textContent = `trick ${st.trick} on the table`;
  } else if (st.last) {
    cards = st.last.cards;
    label.textContent = `last trick, won by ${d.seats[st.last.winner]}`;
    box.classList.add("done");
  } else {
    label.textContent = `${d.seats[st.to_play]} leads the first trick`;
  }
  box.classList.toggle("done", !st.table.length && !!st.last);
  box.append(label);
  const row = document.createElement("div");
  row.className = "rp-trick-cards";
  for (const [seat, code] of cards) {
    const cell = document.createElement("div");
    cell.className = "rp-trick-cell";
    const who = document.createElement("div");
    who.className = "small muted";
    who.textContent = d.seats[seat];
    const c = cardEl(code);
    if (!st.table.length && st.last && seat === st.last.winner) c.classList.add("winner");
    cell.append(who, c);
    row.append(cell);
  }
  box.append(row);
}

function renderPoints(st) {
  const d = S.data, t = $("rp-points");
  const per = d.units.map(() => [0, 0]);
  for (const s of d.in_play) { per[d.unit_of_seat[s]][0] += st.points[s]; per[d.unit_of_seat[s]][1] += st.won[s]; }
  t.tHead.innerHTML = "";
  t.tBodies[0].innerHTML = "";
  const hr = t.tHead.insertRow();
  for (const h of ["", ...d.units]) { const th = document.createElement("th"); th.textContent = h; hr.append(th); }
  const rows = [[d.stock ? "deal points so far" : "card points so far", per.map((p) => p[0])], ["tricks", per.map((p) => p[1])]];
  if (d.stock && d.outcome && st.to_play === null) {
    rows.push(["game score after the deal", d.outcome.game]);
    if (d.outcome.claim !== null) rows.push(["claimed the game", d.seats.map((_, q) => (q === d.outcome.claim ? "claim" : ""))]);
  } else if (d.outcome && st.to_play === null) {
    rows.push(["points with the discard", d.outcome.points]);
    if (d.outcome.score) rows.push(["deal score", d.outcome.score]);
  }
  for (const [name, vals] of rows) {
    const tr = t.tBodies[0].insertRow();
    tr.insertCell().textContent = name;
    for (const v of vals) tr.insertCell().textContent = String(v);
  }
}

function bestValue(h) {
  return Math.max(...valueRows(h).filter((r) => !r.wins).map((r) => r.value));
}
// loss from the best card -> a colour: 0 green, 10 yellow, 25+ red
function colour(loss) {
  const x = Math.max(0, Math.min(1, loss / 25));
  return `hsl(${Math.round(130 - 130 * x)} 65% 80%)`;
}

function renderValues() {
  const st = S.data.steps[S.step];
  const body = $("rp-values").tBodies[0];
  body.textContent = "";
  const note = $("rp-values-note");
  $("rp-value").disabled = st.to_play === null || !st.legal.length;
  if (st.to_play === null) { note.textContent = "The deal is over."; return; }
  if (!st.legal.length) { note.textContent = `The hand of ${S.data.seats[st.to_play]} is hidden in the record.`; return; }
  if (!S.values) { note.textContent = $("rp-auto").checked ? "valuing…" : "Press Value cards."; return; }
  const h = S.values;
  if (h.stock) { renderStockValues(h, body, note); return; }
  setHead(["card", "points ± SE", h.score_of === "side" ? "side score ± SE" : "soloist score ± SE", "DD", ""]);
  const how = h.exact_worlds ? "every world solved exactly" : h.horizon
    ? `heuristic play-outs, exact from ${h.horizon} tricks left` : "heuristic play-outs to the end";
  note.textContent = `${S.data.seats[h.to_play]} (${h.role}) from its own view: PIMC over n = ${h.worlds} worlds${h.auction_weights ? ` weighted by the other seats' calls (R3; effective n = ${h.effective_worlds}${h.dropped_worlds ? `, ${h.dropped_worlds} of weight 0 left out` : ""})` : ""}, ${how}. `
    + (h.double_dummy === "exact" ? "DD: exact double-dummy card points (every hand known)." : `DD: ${h.double_dummy}.`)
    + " Points: card points of the player's side from here to the end (R7).";
  for (const c of h.cards) {
    const tr = body.insertRow();
    tr.dataset.card = c.card;
    tr.insertCell().append(cardEl(c.card));
    tr.insertCell().textContent = `${fx(c.points)} ± ${fx(c.points_se)}`;
    tr.insertCell().textContent = c.score === null ? "–" : `${fx(c.score)} ± ${fx(c.score_se)}`;
    tr.insertCell().textContent = c.dd === null ? "–" : String(c.dd);
    const marks = [];
    if (c.card === h.best) marks.push("PIMC best");
    if (c.card === h.played_in_record) marks.push("played");
    tr.insertCell().textContent = marks.join(", ");
  }
}

function setHead(names) {
  const t = $("rp-values");
  t.tHead.innerHTML = "";
  const tr = t.tHead.insertRow();
  for (const n of names) { const th = document.createElement("th"); th.textContent = n; tr.append(th); }
}

function renderStockValues(h, body, note) {
  const d = S.data;
  setHead(["action", "own − opp. ± SE", "own ± SE", "n", ""]);
  note.textContent = `${d.seats[h.seat]} from its own view: ` + (h.exact
    ? "the stock is gone, both hands are known (V7.4): every action solved exactly."
    : `PIMC over n = ${h.worlds} worlds of the cards it has not seen (the heuristic to the end of the stock, exact after it), mean ± SE.`)
    + " Values: own points minus the opponent's from here to the end of the deal (melds, Dissles, card points, last trick; V7.3, V7.4).";
  for (const a of h.actions) {
    const tr = body.insertRow();
    tr.dataset.card = a.action;
    const first = tr.insertCell();
    if (/^[0-9AKQJ]+[CSHD](\/[a-z]+)?$/.test(a.action)) first.append(cardEl(a.action));
    else first.textContent = pretty(a.action);
    tr.insertCell().textContent = a.wins_game ? "wins the game" : `${fx(a.diff)} ± ${fx(a.diff_se)}`;
    tr.insertCell().textContent = a.wins_game ? "–" : `${fx(a.own)} ± ${fx(a.own_se)}`;
    tr.insertCell().textContent = String(a.n);
    const marks = [];
    if (a.action === h.best) marks.push(h.exact ? "best" : "PIMC best");
    if (a.action === h.played_in_record) marks.push("played");
    tr.insertCell().textContent = marks.join(", ");
  }
}

// ---- values and lines -------------------------------------------------------------------

async function valueCards() {
  const seq = S.seq, step = S.step;
  const cap = parseInt($("rp-worlds").max, 10) || 400;
  const worlds = Math.max(1, Math.min(cap, parseInt($("rp-worlds").value, 10) || 8));
  $("rp-values-note").textContent = "valuing…";
  try {
    const h = await api("/api/replay/hint", { record: S.text, deal: S.deal, step, worlds });
    if (seq !== S.seq) return;
    S.values = h;
    render();
    document.body.dataset.values = String(step);
  } catch (e) {
    if (seq === S.seq) $("rp-values-note").textContent = e.message;
  }
}

async function tryCard(code) {
  const d = S.data, st = d.steps[S.step];
  const seq = S.seq;
  const box = $("rp-line");
  box.hidden = false;
  box.dataset.state = "busy";
  $("rp-line-head").textContent = `${d.seats[st.to_play]}: ${pretty(code)}${code === st.next ? " (as the record)" : ` instead of ${pretty(st.next || "–")}`}: playing the deal out…`;
  $("rp-line-note").textContent = "";
  for (const id of ["rp-line-alt", "rp-line-played"]) $(id).textContent = "";
  $("rp-line-score").tHead.innerHTML = $("rp-line-score").tBodies[0].innerHTML = "";
  try {
    const L = await api("/api/replay/line", { record: S.text, deal: S.deal, step: S.step, card: code });
    if (seq !== S.seq) return;
    S.line = L;
    if (L.stock) renderStockLine(L, st); else renderLine(L, st);
  } catch (e) {
    if (seq === S.seq) { $("rp-line-head").textContent = e.message; box.dataset.state = "error"; }
  }
}

function renderLine(L, st) {
  const d = S.data, box = $("rp-line");
  box.dataset.state = "done";
  box.dataset.method = L.method;
  box.dataset.card = L.card;
  $("rp-line-head").textContent = `${d.seats[L.seat]} plays ${L.card}` + (L.played ? ` instead of ${st.next}` : "");
  $("rp-line-note").textContent = L.method === "dd"
    ? "Both lines played out by double dummy (every hand open, best play for each side)."
    : `Both lines played out by PIMC: each seat picks from its own view (n = ${L.worlds} worlds per decision).`;
  const t = $("rp-line-score");
  const hr = t.tHead.insertRow();
  for (const h of ["", ...L.units]) { const th = document.createElement("th"); th.textContent = h; hr.append(th); }
  const rows = [[`points after ${L.card}`, L.alt.outcome.points]];
  if (L.played) rows.push([`points after ${st.next}`, L.played.outcome.points]);
  if (L.alt.outcome.score) rows.push([`score after ${L.card}`, L.alt.outcome.score]);
  if (L.played && L.played.outcome.score) rows.push([`score after ${st.next}`, L.played.outcome.score]);
  if (L.diff) {
    rows.push(["points difference", L.diff.points.map(sg)]);
    if (L.diff.score) rows.push(["score difference", L.diff.score.map(sg)]);
  }
  for (const [name, vals] of rows) {
    const tr = t.tBodies[0].insertRow();
    tr.dataset.row = name.split(" ")[0] + (name.includes("difference") ? "-diff" : "");
    tr.insertCell().textContent = name;
    for (const v of vals) tr.insertCell().textContent = String(v);
  }
  // the cards already on the table start both lines (dimmed)
  const before = st.table.map(([seat, code]) => [st.trick, seat, code, true]);
  fillLine($("rp-line-alt"), before.concat(L.alt.cards), L.alt.winners);
  if (L.played) fillLine($("rp-line-played"), before.concat(L.played.cards), L.played.winners);
}

// a stock game's line (V7): deal points after each choice and their difference, and the
// play from the step on (cards by trick, melds shown as text)
function renderStockLine(L, st) {
  const d = S.data, box = $("rp-line");
  box.dataset.state = "done";
  box.dataset.method = L.method;
  box.dataset.card = L.action;
  $("rp-line-head").textContent = `${d.seats[L.seat]}: ${pretty(L.action)}` + (L.played ? ` instead of ${pretty(st.next)}` : "");
  $("rp-line-note").textContent = L.method === "exact"
    ? "The stock is gone: both lines played out exactly (both hands known, V7.4)."
    : `Both lines played on the record's cards, each player deciding from its own view: PIMC over n = ${L.worlds} worlds per decision while the stock lasts (greedy rollouts), exact after it.`;
  const t = $("rp-line-score");
  const hr = t.tHead.insertRow();
  for (const h of ["", ...L.units]) { const th = document.createElement("th"); th.textContent = h; hr.append(th); }
  const rows = [[`deal points after ${pretty(L.action)}`, L.alt.outcome.points]];
  if (L.played) rows.push([`deal points after ${pretty(st.next)}`, L.played.outcome.points]);
  if (L.diff) rows.push(["points difference", L.diff.points.map(sg)]);
  for (const [name, vals] of rows) {
    const tr = t.tBodies[0].insertRow();
    tr.dataset.row = name.includes("difference") ? "points-diff" : name.split(" ")[0];
    tr.insertCell().textContent = name;
    for (const v of vals) tr.insertCell().textContent = String(v);
  }
  for (const [key, id] of [["alt", "rp-line-alt"], ["played", "rp-line-played"]]) {
    const line = L[key];
    if (!line) continue;
    const before = st.table.map(([seat, code]) => [st.trick, seat, "play", code, true]);
    fillStockLine($(id), before.concat(line.events), line.winners, line.first_trick);
  }
}

function fillStockLine(ol, events, winners, first) {
  let li = null, t = -1;
  for (const [trick, seat, kind, label, old] of events) {
    if (kind === "pass") continue;
    if (trick !== t || !li) {
      li = document.createElement("li");
      li.value = trick;
      li.dataset.trick = String(trick);
      ol.append(li);
      t = trick;
    }
    if (kind === "play") {
      const c = cardEl(label);
      c.title = S.data.seats[seat];
      if (old) c.classList.add("before");
      if (winners[trick - first] === seat) c.classList.add("winner");
      li.append(c);
    } else {
      const m = document.createElement("span");
      m.className = "rp-ev small";
      m.textContent = `${S.data.seats[seat]}: ${pretty(label)}`;
      li.append(m);
    }
  }
}

// one list item per trick; the winning card ringed (R6), the cards before the step dimmed
function fillLine(ol, cards, winners) {
  let li = null, t = -1;
  for (const [trick, seat, code, old] of cards) {
    if (trick !== t) {
      li = document.createElement("li");
      li.value = trick;
      li.dataset.trick = String(trick);
      ol.append(li);
      t = trick;
    }
    const c = cardEl(code);
    c.title = S.data.seats[seat];
    if (old) c.classList.add("before");
    if (winners[trick - 1] === seat) c.classList.add("winner");
    li.append(c);
  }
}

// ---- wiring -----------------------------------------------------------------------------

function download() {
  const blob = new Blob([S.text], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${S.data ? S.data.game : "deal"}-record.txt`;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function init() {
  try {
    const g = await api("/api/replay/games");
    for (const name of g.games) {
      const o = document.createElement("option");
      o.value = o.textContent = name;
      $("rp-game").append(o);
    }
    $("rp-worlds").max = String(g.max_worlds);
    S.cfg = g;
  } catch (e) { showError(e.message); }
  $("rp-load").addEventListener("click", () => loadRecord($("rp-text").value).catch((e) => showError(e.message)));
  $("rp-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    if (f.size > 48 * 1024) { showError(`${f.name}: too large (${f.size} bytes; at most 49152)`); return; }
    const text = await f.text();
    loadRecord(text).catch((e) => showError(e.message));
    ev.target.value = "";
  });
  $("rp-sample").addEventListener("click", async () => {
    try {
      const seed = parseInt($("rp-seed").value, 10) || 0;
      const j = await api(`/api/replay/sample?game=${encodeURIComponent($("rp-game").value)}&seed=${seed}`);
      await loadRecord(j.record);
    } catch (e) { showError(e.message); }
  });
  $("rp-save").addEventListener("click", download);
  $("rp-deal").addEventListener("change", (e) => loadRecord(S.text, parseInt(e.target.value, 10)).catch((x) => showError(x.message)));
  $("rp-first").addEventListener("click", () => go(0));
  $("rp-prev").addEventListener("click", () => go(S.step - 1));
  $("rp-next").addEventListener("click", () => go(S.step + 1));
  $("rp-last").addEventListener("click", () => go(S.data.steps.length - 1));
  $("rp-slider").addEventListener("input", (e) => go(parseInt(e.target.value, 10)));
  $("rp-value").addEventListener("click", valueCards);
  document.addEventListener("keydown", (e) => {
    if (!S.data || e.target.closest("textarea, input, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: S.step - 1, ArrowRight: S.step + 1, Home: 0, End: S.data.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  window.addEventListener("hashchange", restore);
  await restore();
  document.body.dataset.ready = "1";
}

async function restore() {
  const h = readHash();
  if (!h.r) return;
  try {
    const text = await decodeRecord(h.r);
    if (S.data && text === S.text && h.d === S.deal) {
      if (h.s !== S.step) await go(h.s);
      return;
    }
    await loadRecord(text, h.d, h.s);
  } catch (e) { showError(`the link's record: ${e.message}`); }
}

init();
