// Binokel advisor page.  Presentation only: card text is parsed, auctions are checked and
// every number is computed by the server's library calls (/api/...); this file draws them.
"use strict";

const SUITS = ["C", "S", "H", "D"];
const RANKS = ["A", "10", "K", "Q", "J", "9"];
const SYM = { C: "♣", S: "♠", H: "♥", D: "♦" };
const DE_SUIT = { C: "Eichel", S: "Schippen", H: "Herz", D: "Schellen" };
const DE_RANK = { A: "Ass", 10: "Zehn", K: "König", Q: "Ober", J: "Unter", 9: "Neun", 7: "Sieben" };
const SEAT_PARAM = { forehand: "fh", middlehand: "mh", rearhand: "rh", fh: "fh", mh: "mh", rh: "rh",
  vorhand: "fh", mittelhand: "mh", hinterhand: "rh", 0: "fh", 1: "mh", 2: "rh" };
const DE_SEAT = { forehand: "Vorhand", middlehand: "Mittelhand", rearhand: "Hinterhand", dealer: "Geber" };
const COPIES = { 1: "one", 2: "two", 3: "three", 4: "four" };
const SIZE = { hand: 15, tapp: 3 };   // from the chosen rules (binokel-40: 12 + 4)
const POLL_MS = 120;

const $ = (id) => document.getElementById(id);
const S = {
  play: "heuristic",
  hand: new Array(24).fill(0), tapp: new Array(24).fill(0), target: "hand", lang: "en",
  auction: [], auctionInfo: null, view: null, job: null, runToken: 0, info: null,
};
const charts = {};

// ------------------------------------------------------------------ the game's table (/api/info rules)
// every game's seats, sides, copies and auction form come from the registry (web/games.py)
const copies = () => (S.rules && S.rules.copies) || 2;
const partnersGame = () => !!(S.rules && S.rules.sides === "partners");
const seatRows = () => (S.rules && S.rules.seats) || [
  { index: 0, name: "forehand", short: "FH", param: "fh" }, { index: 1, name: "middlehand", short: "MH", param: "mh" },
  { index: 2, name: "rearhand", short: "RH", param: "rh" }];
const seatShort = (name) => (seatRows().find((r) => r.name === name) || { short: name }).short;
const seatByParam = (v) => seatRows().find((r) => r.param === String(v)) || seatRows()[0];
const seatName = (i) => (seatRows()[i] || { name: String(i) }).name;
// "forehand + rearhand against middlehand + dealer", the asking seat's side first
function sidesText(seatIndex) {
  const t = S.rules && S.rules.teams;
  if (!t) return "";
  const mine = seatIndex === undefined ? 0 : seatIndex % 2;
  const you = seatIndex === undefined ? null : seatName(seatIndex);
  const side = (names) => names.map((n) => (n === you ? `<span class="you">${esc(n)} (you)</span>`
    : you !== null && names.includes(you) ? `<span class="mate">${esc(n)}</span>` : esc(n))).join(" + ");
  return `${side(t[mine])} against ${side(t[1 - mine])}`;
}

// ------------------------------------------------------------------ cards
// rank 5 is the variant's low card: the 9, the 7 (grupp games) or absent (40 cards)
const lowCard = () => (S.rules && S.rules.low_card !== undefined ? S.rules.low_card : "9");
const rankWord = (ri) => (ri === 5 ? lowCard() || "9" : RANKS[ri]);
const typeOf = (code) => {
  const r = code.slice(0, -1);
  const si = SUITS.indexOf(code.slice(-1)), ri = r === "7" ? 5 : RANKS.indexOf(r);
  return si < 0 || ri < 0 ? -1 : si * 6 + ri;
};
const codeOf = (t) => rankWord(t % 6) + SUITS[Math.floor(t / 6)];
const isRed = (t) => Math.floor(t / 6) >= 2;
const label = (t) => {
  const s = SUITS[Math.floor(t / 6)], r = RANKS[t % 6];
  const rr = rankWord(t % 6);
  return S.lang === "de" ? `${DE_SUIT[s]}-${DE_RANK[rr]}` : `${rr}${SYM[s]}`;
};
const codes = (counts) => {
  const out = [];
  counts.forEach((n, t) => { for (let i = 0; i < n; i++) out.push(codeOf(t)); });
  return out;
};
const total = (counts) => counts.reduce((a, b) => a + b, 0);
// "10S KH QH" (the library's codes) in the chosen labels: "10♠ K♥ Q♥" or "Schippen-Zehn, ..."
const cardsText = (text) => {
  const cs = String(text || "").split(/\s+/).filter(Boolean);
  if (!cs.every((c) => typeOf(c) >= 0)) return String(text || "");
  return cs.map((c) => label(typeOf(c))).join(S.lang === "de" ? ", " : " ");
};

function renderPicker() {
  const p = $("picker");
  p.textContent = "";
  const low = lowCard();
  p.style.gridTemplateColumns = `auto repeat(${low ? 6 : 5}, 1fr)`;
  SUITS.forEach((s, si) => {
    const lab = document.createElement("div");
    lab.className = "suit-label";
    lab.innerHTML = `<span class="sym${si >= 2 ? " red" : ""}">${SYM[s]}</span>` +
      (S.lang === "de" ? `<span class="name">${DE_SUIT[s]}</span>` : "");
    p.appendChild(lab);
    RANKS.forEach((r0, ri) => {
      if (ri === 5 && !low) return;          // a 40-card deck has no rank 5
      const r = rankWord(ri);
      const t = si * 6 + ri;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "card" + (isRed(t) ? " red" : "") + (S.lang === "de" ? " de" : "");
      b.dataset.card = codeOf(t);
      // German: the rank word on the card, the suit name on the row (whole names do not fit a phone)
      b.innerHTML = S.lang === "de"
        ? `<span class="rk">${DE_RANK[r]}</span><span class="st">${SYM[s]}</span>`
        : `<span class="rk">${r}</span><span class="st">${SYM[s]}</span>`;
      b.addEventListener("click", () => addCard(t));
      b.addEventListener("contextmenu", (e) => { e.preventDefault(); removeCard(S.target, t); });
      p.appendChild(b);
    });
  });
  updatePicker();
}

function updatePicker() {
  document.querySelectorAll("#picker .card").forEach((b) => {
    const t = typeOf(b.dataset.card), h = S.hand[t], k = S.tapp[t];
    for (let c = 1; c <= 4; c++) b.classList.toggle(`n${c}`, h === c);
    b.classList.toggle("gone", h + k >= copies() && h < copies());
    b.dataset.hand = h;
    b.dataset.tapp = k;
    b.title = `${label(t)} (${codeOf(t)}): ${h} in hand` + (k ? `, ${k} in Tapp` : "");
    b.setAttribute("aria-label", `${label(t)}, ${h} in hand${k ? `, ${k} in Tapp` : ""}`);
    let dots = b.querySelector(".dots:not(.t)");
    if (!dots) { dots = document.createElement("span"); dots.className = "dots"; b.appendChild(dots); }
    dots.textContent = "●".repeat(h);
    let td = b.querySelector(".dots.t");
    if (!td) { td = document.createElement("span"); td.className = "dots t"; b.appendChild(td); }
    td.textContent = "▲".repeat(k);
  });
  for (const which of ["hand", "tapp"]) {
    const box = $(`${which}-cards`);
    box.textContent = "";
    S[which].forEach((n, t) => {
      for (let i = 0; i < n; i++) {
        const c = document.createElement("button");
        c.type = "button";
        c.className = "chip" + (isRed(t) ? " red" : "") + (S.lang === "de" ? " de" : "");
        c.textContent = label(t);
        c.dataset.card = codeOf(t);
        c.title = "click to remove";
        c.addEventListener("click", () => removeCard(which, t));
        box.appendChild(c);
      }
    });
    const cnt = $(`${which}-count`);
    const n = total(S[which]);
    cnt.textContent = `${n}/${SIZE[which]}`;
    cnt.classList.toggle("full", n === SIZE[which]);
  }
}

function setTarget(which) {
  S.target = which;
  for (const w of ["hand", "tapp"]) {
    $(`target-${w}`).classList.toggle("active", w === which);
    $(`target-${w}`).setAttribute("aria-selected", String(w === which));
  }
}

// messages about the cards, one per source (picker clicks, hand text, Tapp text)
const msgs = { picker: "", hand: "", tapp: "" };
function cardsMsg(text, key = "picker") {
  msgs[key] = text || "";
  $("cards-msg").textContent = Object.values(msgs).filter(Boolean).join(" ");
}

function addCard(t) {
  const which = S.target;
  const k = copies();
  if (S.hand[t] + S.tapp[t] >= k) {
    cardsMsg(`${label(t)} (${codeOf(t)}): the deck has only ${COPIES[k]} copies of each card (${k === 2 ? "R1" : "V6.1"}); ` +
      `${k === 2 ? "both" : "all"} are already in your ${S.hand[t] === k ? "hand" : S.tapp[t] === k ? "Tapp" : "hand and Tapp"}.`);
    return;
  }
  if (total(S[which]) >= SIZE[which]) {
    cardsMsg(`the ${which === "hand" ? "hand" : "Tapp"} already has ${SIZE[which]} cards: ` +
      `click one of its cards to take it back first.`);
    return;
  }
  S[which][t] += 1;
  cardsMsg("");
  afterCardsChanged(which);
}

function removeCard(which, t) {
  if (S[which][t] === 0) return;
  S[which][t] -= 1;
  cardsMsg("");
  afterCardsChanged(which);
}

function afterCardsChanged(which) {
  $(`${which}-text`).value = codes(S[which]).join(" ");
  cardsMsg("", which);   // the picker now holds what the text box shows
  updatePicker();
  saveUrl();
}

// the text box is parsed by the server (the CLI's parser: French, symbols, German names)
const textTimers = {};
function onTextInput(which) {
  clearTimeout(textTimers[which]);
  textTimers[which] = setTimeout(() => parseText(which), 250);
}

async function parseText(which, fromUrl) {
  const text = $(`${which}-text`).value;
  if (!text.trim()) {
    S[which] = new Array(24).fill(0);
    cardsMsg("", which);
    updatePicker(); saveUrl();
    return true;
  }
  const r = await api("GET", "/api/cards", { text, rules: $("rules").value });
  if (!r.ok) { cardsMsg(`${which === "hand" ? "Hand" : "Tapp"}: ${r.error}`, which); return false; }
  const counts = new Array(24).fill(0);
  r.data.cards.forEach((c) => { counts[typeOf(c)] += 1; });
  const other = which === "hand" ? S.tapp : S.hand;
  const clash = counts.findIndex((n, t) => n + other[t] > copies());
  S[which] = counts;
  if (clash >= 0) {
    cardsMsg(`${label(clash)} (${codeOf(clash)}): hand and Tapp hold ${counts[clash] + other[clash]} copies; ` +
      `the deck has only ${COPIES[copies()]} of each card (R1, V6.1).`, which);
  } else if (r.data.count > SIZE[which]) {
    cardsMsg(`${which === "hand" ? "Hand" : "Tapp"}: ${r.data.count} cards, but it has ${SIZE[which]}.`, which);
  } else {
    cardsMsg("", which);
  }
  updatePicker();
  if (!fromUrl) saveUrl();
  return true;
}

// ------------------------------------------------------------------ auction (R3, checked by the server)
async function refreshAuction() {
  const r = await api("GET", "/api/auction", { auction: S.auction.join(","), rules: $("rules").value });
  const calls = $("auction-calls");
  calls.textContent = "";
  if (!r.ok) {
    S.auctionInfo = null;
    $("auction-status").textContent = "";
    showError(r.error);
    $("call-pass").disabled = true;
    $("call-raise").disabled = true;
    return;
  }
  const info = r.data;
  S.auctionInfo = info;
  info.calls.forEach((c) => {
    const el = document.createElement("span");
    el.className = "call";
    el.innerHTML = `<span class="who">${esc(seatShort(c.seat))}</span>${c.call}`;
    calls.appendChild(el);
  });
  if (!info.calls.length) {
    const el = document.createElement("span");
    el.className = "muted small";
    el.textContent = `no calls yet (${info.to_move} ${info.legal.includes("pass") ? "calls first" : `opens at ${info.legal[0]}`})`;
    calls.appendChild(el);
  }
  const raise = info.legal.find((c) => c !== "pass");
  $("call-pass").disabled = !info.legal.includes("pass");
  $("call-raise").disabled = !raise;
  $("call-raise").textContent = raise
    ? (info.standing !== null ? `+${Number(raise) - info.standing} → ${raise}` : `${info.calls.length ? "bid" : "open"} ${raise}`)
    : "+10";
  $("call-raise").dataset.call = raise || "";
  // open bidding (V6.2): any multiple of the step above the standing bid
  $("jump-box").hidden = !info.jumps;
  if (info.jumps) {
    $("call-bid").min = raise;
    $("call-bid").step = info.step;
    $("call-bid").placeholder = raise;
  }
  $("call-undo").disabled = !S.auction.length;
  $("call-clear").disabled = !S.auction.length;
  auctionStatus();
}

// whose call it is; the advice is for the seat chosen above, so say when that differs
function auctionStatus() {
  const info = S.auctionInfo;
  if (!info) return;
  const seat = seatByParam($("seat").value).name;
  $("auction-status").textContent = info.finished
    ? `over: ${info.soloist} is soloist at ${info.standing}`
    : `${info.to_move} to call`;
  $("auction-warn").textContent = !info.finished && info.to_move !== seat
    ? `Advice is for the seat whose call it is: set Seat to ${info.to_move}, or add calls until it is ${seat}'s turn.`
    : info.finished ? "The auction is over: clear or undo calls to get advice." : "";
}

function call(c) { if (c) { S.auction.push(c); clearError(); refreshAuction(); saveUrl(); } }

// a jump bid (open bidding, V6.2): checked by the server before it joins the calls
async function jump(v) {
  const r = await api("GET", "/api/auction", { auction: [...S.auction, v].join(","), rules: $("rules").value });
  if (!r.ok) { showError(r.error); return; }
  $("call-bid").value = "";
  call(v);
}

// ------------------------------------------------------------------ URL state
function params() {
  const scores = ["fh", "mh", "rh"].slice(0, (S.rules && S.rules.score_units) || 3).map((s) => $(`score-${s}`).value.trim());
  return {
    hand: codes(S.hand).join(","),
    tapp: codes(S.tapp).join(","),
    seat: $("seat").value,
    auction: S.auction.join(","),
    rules: $("rules").value,
    scores: scores.some((x) => x !== "") ? scores.join(",") : "",
    objective: $("objective").value,
    samples: $("samples").value.trim(),
    asamples: $("asamples").value.trim(),
    seed: $("seed").value.trim(),
    bid: $("bid").value.trim(),
    inference: $("inference").checked ? "" : "0",
    play: $("play").value === "heuristic" ? "" : $("play").value,
  };
}

// samples default and cap of each view for a card play (PIMC has its own: /api/info)
function sampleSizes(play) {
  const i = S.info || {};
  const pimc = play && play !== "heuristic";
  const d = (pimc ? i.default_samples_pimc : i.default_samples) || {};
  const m = (pimc ? i.max_samples_pimc : i.max_samples) || {};
  return { advise: d.advise ?? 2000, analyze: d.analyze ?? 10000, maxAdvise: m.advise, maxAnalyze: m.analyze };
}

// a new card play: sample fields still at the old play's default take the new default
function onPlayChange() {
  const before = sampleSizes(S.play), after = sampleSizes($("play").value);
  if ($("samples").value.trim() === String(before.advise)) $("samples").value = after.advise;
  if ($("asamples").value.trim() === String(before.analyze)) $("asamples").value = after.analyze;
  if (after.maxAdvise) $("samples").max = after.maxAdvise;
  if (after.maxAnalyze) $("asamples").max = after.maxAnalyze;
  S.play = $("play").value;
  saveUrl();
}

function saveUrl() {
  const p = params();
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) {
    if (v === "" || (k === "seat" && v === seatRows()[0].param)) continue;
    if (k === "samples" && v === String(sampleSizes(p.play).advise)) continue;
    if (k === "asamples" && v === String(sampleSizes(p.play).analyze)) continue;
    if (k === "seed" && v === "0") continue;
    if (k === "rules" && v === "binokel-48") continue;
    q.set(k, v);
  }
  if (S.lang === "de") q.set("labels", "de");
  if (S.view) q.set("view", S.view);
  // commas and card codes stay readable in the address bar
  const s = q.toString().replace(/%2C/gi, ",");
  history.replaceState(null, "", s ? `?${s}` : location.pathname);
}

async function loadUrl() {
  let q;
  try {
    q = new URLSearchParams(location.search);
  } catch (e) {
    showError("the address has a malformed query string");
    return;
  }
  const known = new Set(["hand", "tapp", "seat", "auction", "scores", "objective", "samples", "asamples",
    "seed", "bid", "inference", "view", "labels", "rules", "play"]);
  const unknown = [...q.keys()].filter((k) => !known.has(k));
  if (unknown.length) showError(`unknown parameter in the address: ${unknown[0]}`);
  if (q.get("labels") === "de") { S.lang = "de"; $("labels").value = "de"; renderPicker(); }
  if (q.has("rules")) {
    if (!setRules(q.get("rules"))) showError(`rules: unknown '${q.get("rules")}': use ${[...$("rules").options].map((o) => o.value).join(", ")}`);
  }
  if (q.has("seat")) {
    const v = q.get("seat").toLowerCase();
    let row = seatRows().find((r) => r.param === v || r.name === v || r.short.toLowerCase() === v);
    if (!row && !partnersGame() && SEAT_PARAM[v]) row = seatByParam(SEAT_PARAM[v]);
    if (row) $("seat").value = row.param;
    else showError(`seat: unknown seat '${q.get("seat")}': use ${seatRows().map((r) => r.param).join(", ")}`);
  }
  const sc = (q.get("scores") || "").split(",");
  ["fh", "mh", "rh"].forEach((s, i) => { $(`score-${s}`).value = sc[i] !== undefined ? sc[i].trim() : ""; });
  if (q.get("scores")) $("more").open = true;
  for (const k of ["objective", "samples", "asamples", "seed", "bid"]) {
    if (q.has(k)) { $(k).value = q.get(k); if (k !== "objective" || q.get(k)) $("more").open = true; }
  }
  if (q.get("objective") && $("objective").value !== q.get("objective")) {
    showError(`objective: unknown '${q.get("objective")}': use relative, own or win`);
  }
  if (q.get("inference") === "0") { $("inference").checked = false; $("more").open = true; }
  if (q.has("play")) {
    const play = q.get("play").toLowerCase();
    if ([...$("play").options].some((o) => o.value === play)) {
      $("play").value = play;
      $("more").open = true;
      const sz = sampleSizes(play);
      if (!q.has("samples")) $("samples").value = sz.advise;
      if (!q.has("asamples")) $("asamples").value = sz.analyze;
      if (sz.maxAdvise) $("samples").max = sz.maxAdvise;
      if (sz.maxAnalyze) $("asamples").max = sz.maxAnalyze;
      S.play = play;
    } else {
      showError(`play: unknown '${q.get("play")}': use ${[...$("play").options].map((o) => o.value).join(", ")}`);
    }
  }
  S.auction = (q.get("auction") || "").split(/[\s,]+/).filter(Boolean);
  $("hand-text").value = (q.get("hand") || "").replace(/,/g, " ");
  $("tapp-text").value = (q.get("tapp") || "").replace(/,/g, " ");
  const okH = await parseText("hand", true);
  const okT = await parseText("tapp", true);
  await refreshAuction();
  const view = q.get("view");
  if (view && !["advise", "melds", "analyze"].includes(view)) {
    showError(`view: unknown '${view}': use advise, melds or analyze`);
  } else if (view && okH && okT) {
    run(view);
  } else if (view) {
    S.view = view;
  }
}

// ------------------------------------------------------------------ talking to the server
// The API's schemas are strict (web/params.py): a count is a JSON number, a flag a JSON
// boolean. Whole numbers typed into a field go out digit for digit (a seed may exceed
// 2^53, which a JS Number would round); anything else goes out as the text typed, and the
// server names the problem ("seed: 'abc' is not a whole number").
const INT_FIELDS = new Set(["samples", "seed", "bid"]);
function jsonBody(data) {
  const parts = Object.entries(data).map(([k, v]) => {
    const t = typeof v === "string" ? v.trim() : null;
    const raw = INT_FIELDS.has(k) && t !== null && /^-?\d+$/.test(t)
      ? t.replace(/^(-?)0+(?=\d)/, "$1") : JSON.stringify(v);
    return `${JSON.stringify(k)}:${raw}`;
  });
  return `{${parts.join(",")}}`;
}

async function api(method, path, data) {
  let url = path, opts = { method, headers: {} };
  if (method === "GET" && data) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(data)) if (v !== "" && v !== null && v !== undefined) q.set(k, v);
    const s = q.toString();
    if (s) url += `?${s}`;
  } else if (data) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = jsonBody(data);
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    return { ok: false, status: 0, error: "the server does not answer: is `binokel serve` still running?" };
  }
  let body = null;
  try { body = await resp.json(); } catch (e) { body = null; }
  if (!resp.ok) {
    return { ok: false, status: resp.status, error: (body && body.error) || `HTTP ${resp.status}` };
  }
  return { ok: true, status: resp.status, data: body };
}

function showError(text) {
  const e = $("error");
  e.textContent = text;
  e.hidden = false;
  if (window.matchMedia("(max-width: 820px)").matches) e.scrollIntoView({ block: "center" });
}
function clearError() { const e = $("error"); e.textContent = ""; e.hidden = true; }

function requestFor(view) {
  const p = params();
  const drop = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "" && v !== undefined));
  if (view === "melds") return drop({ hand: p.hand, rules: p.rules });
  if (view === "advise") {
    return drop({ hand: p.hand, seat: p.seat, auction: p.auction, scores: p.scores,
      objective: p.objective, samples: p.samples, seed: p.seed, inference: p.inference === "0" ? false : "", rules: p.rules,
      play: p.play });
  }
  return drop({ hand: p.hand, tapp: p.tapp, seat: p.seat, samples: p.asamples, seed: p.seed, bid: p.bid,
    rules: p.rules, play: p.play });
}

async function run(view) {
  S.view = view;
  saveUrl();
  document.querySelectorAll(".actions .primary").forEach((b) => b.classList.toggle("current", b.dataset.view === view));
  await cancelJob();
  const token = ++S.runToken;
  clearError();
  const req = requestFor(view);
  if (view === "melds") {
    const r = await api("GET", "/api/melds", req);
    if (token !== S.runToken) return;
    if (!r.ok) { hideResults(); showError(r.error); return; }
    showResult("melds", r.data);
    return;
  }
  setProgress(0, 0, "starting…");
  const r = await api("POST", `/api/jobs/${view}`, req);
  if (token !== S.runToken) return;
  if (!r.ok) { hideProgress(); hideResults(); showError(r.error); return; }
  S.job = r.data.id;
  const started = performance.now();
  for (;;) {
    await new Promise((res) => setTimeout(res, POLL_MS));
    if (token !== S.runToken) return;
    const j = await api("GET", `/api/jobs/${r.data.id}`);
    if (token !== S.runToken) return;
    if (!j.ok) { hideProgress(); showError(j.error); S.job = null; return; }
    const d = j.data;
    if (d.state === "done") {
      S.job = null;
      hideProgress();
      showResult(view, d.result);
      const secs = (performance.now() - started) / 1000;
      $(`result-${view}`).dataset.elapsed = secs.toFixed(2);
      const meta = $(view === "advise" ? "advice-meta" : "analysis-meta");
      meta.textContent += ` · ${secs.toFixed(1)} s`;
      return;
    }
    if (d.state === "error" || d.state === "cancelled") {
      S.job = null;
      hideProgress();
      if (d.state === "error") { hideResults(); showError(d.error); } else showError("cancelled");
      return;
    }
    setProgress(d.done, d.total, d.state === "queued" ? "waiting for a free worker…" : "simulating");
  }
}

async function cancelJob() {
  const id = S.job;
  S.job = null;
  if (id) await api("DELETE", `/api/jobs/${id}`);
}

function setProgress(done, tot, text) {
  $("progress").hidden = false;
  const frac = tot ? done / tot : 0;
  $("progress-bar").style.width = `${Math.round(100 * frac)}%`;
  $("progress-text").textContent = tot ? `${text}: ${done} of ${tot} chunks` : text;
}
function hideProgress() { $("progress").hidden = true; }
function hideResults() { for (const v of ["advise", "melds", "analyze"]) $(`result-${v}`).hidden = true; }

// ------------------------------------------------------------------ formatting
// toFixed rounds half away from zero on the exact binary value (tests mirror it)
const f1 = (x) => (x === null || x === undefined ? "–" : x.toFixed(1));
const f0 = (x) => (x === null || x === undefined ? "–" : x.toFixed(0));
const sg = (x, d = 1) => (x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(d));
const pc = (x, d = 1) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(d)}%`);
// a value and its interval: "81.3% [79.6–83.0]"; the interval is its own span so that a
// phone can put it on a second line
const CI = "\u0001";
const pci = (p, lo, hi) => `${pc(p)}${CI}[${(100 * lo).toFixed(1)}–${(100 * hi).toFixed(1)}]`;
const sci = (m, lo, hi) => `${sg(m)}${CI}[${sg(lo, 0)}, ${sg(hi, 0)}]`;
const cell = (t) => {
  const [a, b] = String(t).split(CI);
  return b === undefined ? esc(a) : `${esc(a)} <span class="ci">${esc(b)}</span>`;
};
const pmi = (m, lo, hi) => (m === null || m === undefined ? "–" : `${m.toFixed(1)} ± ${((hi - lo) / 2).toFixed(1)}`);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function table(el, head, rows) {
  const t = $(el);
  t.textContent = "";
  const thead = document.createElement("thead");
  thead.innerHTML = "<tr>" + head.map((h) => `<th class="${h.l ? "l" : ""}">${esc(h.t)}</th>`).join("") + "</tr>";
  t.appendChild(thead);
  const tb = document.createElement("tbody");
  rows.forEach((r) => {
    const tr = document.createElement("tr");
    if (r.cls) tr.className = r.cls;
    Object.entries(r.data || {}).forEach(([k, v]) => { tr.dataset[k] = v; });
    tr.innerHTML = r.cells.map((c) => `<td class="${c.l ? "l" : ""}${c.wrap ? " wrap" : ""}${c.cls ? " " + c.cls : ""}"` +
      (c.col ? ` data-col="${c.col}"` : "") + (c.v !== undefined ? ` data-value="${c.v}"` : "") +
      `>${cell(c.t)}</td>`).join("");
    tb.appendChild(tr);
  });
  t.appendChild(tb);
}

function chart(id, config) {
  if (charts[id]) charts[id].destroy();
  if (!window.Chart) return;
  config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options || {});
  charts[id] = new window.Chart($(id), config);
}

// ------------------------------------------------------------------ answers
function showResult(view, data) {
  hideResults();
  $(`result-${view}`).hidden = false;
  // one column (phone): the answer is below the inputs, bring it into view
  if (window.matchMedia("(max-width: 820px)").matches) $("output").scrollIntoView({ block: "start" });
  if (view === "advise") renderAdvice(data);
  else if (view === "melds") renderMelds(data);
  else renderAnalysis(data);
}

const KNOWN_ADVICE = new Set(["bid", "p_make", "p_make_lo", "p_make_hi", "ev_score", "ev_score_lo", "ev_score_hi",
  "ev_objective", "ev_objective_lo", "ev_objective_hi", "minus_pass", "minus_pass_lo", "minus_pass_hi", "p_surrender"]);

function renderAdvice(d) {
  $("advice-partners").hidden = d.team === undefined;
  if (d.team !== undefined) { renderTeamAdvice(d); return; }
  $("advice-foot").textContent = "P(make): contract fulfilled (R8); brackets are 95% confidence intervals; " +
    "“vs pass”: the bid's expected objective minus passing's, on the same sampled deals.";
  const win = d.objective === "win";
  const fo = win ? (m, lo, hi) => pci(m, lo, hi) : sci;
  const head = d.max_bid !== null && d.max_bid !== undefined
    ? `Bid up to ${d.max_bid}` : d.forced_open ? "Stop at the forced 150" : "Pass";
  $("advice-headline").textContent = head;
  $("advice-headline").dataset.maxBid = d.max_bid === null ? "" : d.max_bid;
  const obj = { relative: "own − mean of opponents", own: "own score", win: "P(win game)" }[d.objective] || d.objective;
  $("advice-meta").textContent = `objective: ${obj} · samples ${d.samples} (effective ${Math.round(d.effective_samples)}) · seed ${d.seed}` +
    (d.play && d.play !== "heuristic" ? ` · card play ${d.play}` : "");
  $("advice-explanation").textContent = d.explanation;
  const notes = $("advice-notes");
  notes.textContent = "";
  (d.notes || []).forEach((n) => { const li = document.createElement("li"); li.textContent = n; notes.appendChild(li); });
  notes.hidden = !(d.notes || []).length;
  const s = d.surrender;
  $("advice-surrender").textContent = s
    ? (s.p_chosen === 0
      ? `Surrender at ${s.bid} (R4) would score −${s.bid} for you and 50 + melds for each opponent; the exchange never chose it here.`
      : `Surrender at ${s.bid} (R4): you score −${s.bid}, each opponent 50 + melds (mean ${f0(s.opponent_mean)}); chosen in ${pc(s.p_chosen, 0)} of samples.`)
    : "";
  const rows = d.table || [];
  // columns the library adds later (e.g. exchange or trump shares) are shown as they come
  const extra = rows.length ? Object.keys(rows[0]).filter((k) => !KNOWN_ADVICE.has(k) && !/_(lo|hi|se)$/.test(k)
    && typeof rows[0][k] !== "object") : [];
  const isShare = (k) => /^p_|share/.test(k);
  // runs of identical rows (a sure contract: the same deals made at every bid) show once,
  // with the last row's numbers, as the CLI prints them
  const runs = [];
  rows.forEach((r) => {
    const last = runs[runs.length - 1];
    if (last && last.r.p_make.toFixed(4) === r.p_make.toFixed(4) && last.r.ev_score.toFixed(1) === r.ev_score.toFixed(1)
      && r.bid !== d.max_bid && last.r.bid !== d.max_bid) {
      last.r = r;
    } else {
      runs.push({ first: r.bid, r });
    }
  });
  table("advice-table",
    // the deciding columns first: on a phone they are the ones in view
    [{ t: "bid" }, { t: "P(make) [95% CI]" }, { t: win ? "P(win game) [95% CI]" : "E[objective] [95% CI]" },
      { t: "vs pass" }, { t: "E[score] [95% CI]" }, { t: "surrender" },
      ...extra.map((k) => ({ t: k.replace(/_/g, " ") }))],
    runs.map(({ first, r }) => ({
      cls: r.bid === d.max_bid ? "rec" : "",
      data: { bid: r.bid, first },
      cells: [
        { t: first === r.bid ? r.bid : `${first}–${r.bid}`, col: "bid", v: r.bid },
        { t: pci(r.p_make, r.p_make_lo, r.p_make_hi), col: "p_make", v: r.p_make },
        { t: fo(r.ev_objective, r.ev_objective_lo, r.ev_objective_hi), col: "ev_objective", v: r.ev_objective },
        { t: win ? `${sg(100 * r.minus_pass)} pts` : sg(r.minus_pass), col: "minus_pass", v: r.minus_pass,
          cls: r.minus_pass >= 0 ? "plus" : "minus" },
        { t: sci(r.ev_score, r.ev_score_lo, r.ev_score_hi), col: "ev_score", v: r.ev_score },
        { t: pc(r.p_surrender), col: "p_surrender", v: r.p_surrender },
        ...extra.map((k) => {
          const v = r[k], lo = r[`${k}_lo`], hi = r[`${k}_hi`];
          let t = typeof v === "number" ? (isShare(k) ? pc(v) : f1(v)) : String(v ?? "–");
          if (typeof v === "number" && lo !== undefined && hi !== undefined) {
            t = isShare(k) ? pci(v, lo, hi) : `${f1(v)} [${f0(lo)}, ${f0(hi)}]`;
          }
          return { t, col: k, v };
        }),
      ],
    })));
  const pv = d.pass_value;
  const scale = win ? 100 : 1;
  chart("chart-advice", {
    type: "line",
    data: {
      labels: rows.map((r) => r.bid),
      datasets: [
        { label: "95% CI low", data: rows.map((r) => scale * r.ev_objective_lo), borderWidth: 0, pointRadius: 0, fill: false },
        { label: "95% CI", data: rows.map((r) => scale * r.ev_objective_hi), borderWidth: 0, pointRadius: 0,
          fill: "-1", backgroundColor: "rgba(31,111,80,.18)" },
        { label: win ? "P(win game) if you play at this bid, %" : "E[objective] if you play at this bid",
          data: rows.map((r) => scale * r.ev_objective), borderColor: "#1f6f50", backgroundColor: "#1f6f50",
          pointRadius: rows.map((r) => (r.bid === d.max_bid ? 6 : 2)), borderWidth: 2 },
        { label: `pass (${win ? pc(pv.mean) : sg(pv.mean)})`, data: rows.map(() => scale * pv.mean),
          borderColor: "#c0262d", borderDash: [6, 4], pointRadius: 0, borderWidth: 2 },
        { label: "P(make), %", data: rows.map((r) => 100 * r.p_make), yAxisID: "y2", borderColor: "#8a8a8f",
          borderDash: [2, 3], pointRadius: 0, borderWidth: 1.5 },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { labels: { filter: (item) => !item.text.startsWith("95% CI"), boxWidth: 14, font: { size: 11 } } },
        title: { display: true, text: `${win ? "P(win game)" : "Expected objective"} by maximum bid, against passing` },
      },
      scales: {
        x: { title: { display: true, text: "bid" } },
        y: { title: { display: true, text: win ? "P(win game), %" : "points" } },
        y2: { position: "right", min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: "P(make), %" } },
      },
    },
  });
}

// a partners game's advice (analyzer.analyses.team_advice: one row per bid, the team's objective)
function renderTeamAdvice(d) {
  const win = d.objective === "win";
  const sc = win ? 100 : 1;
  const fv = (v, dd = 1) => (win ? `${sg(100 * v, dd)} pts` : sg(v, dd));
  const ci = (m, lo, hi) => (win ? pci(m, lo, hi) : sci(m, lo, hi));
  $("advice-headline").textContent = d.max_bid !== null && d.max_bid !== undefined ? `Bid up to ${d.max_bid}` : "Pass";
  $("advice-headline").dataset.maxBid = d.max_bid === null ? "" : d.max_bid;
  $("advice-meta").textContent = `objective: ${win ? "P(win game)" : "team − other team"} · samples ${d.samples} ` +
    `(effective ${Math.round(d.effective_samples)}) · seed ${params().seed || 0}`;
  $("advice-partners").innerHTML = `You sit ${esc(seatName(d.seat))}, team ${d.team}: ${sidesText(d.seat)}.`;
  const pv = d.pass_value;
  $("advice-explanation").textContent = `Next bid ${d.next_bid}; passing is worth ` +
    `${win ? pc(pv.mean) : sg(pv.mean)} [${win ? pc(pv.lo, 0) : sg(pv.lo, 0)}, ${win ? pc(pv.hi, 0) : sg(pv.hi, 0)}] ` +
    `to your team. ` + (d.max_bid === null || d.max_bid === undefined
    ? `Bidding ${d.next_bid} ${d.over_partner ? "is not significantly better than" : "is worth less than"} passing.`
    : `Bid while the bid is worth at least passing: up to ${d.max_bid}.`);
  const notes = $("advice-notes");
  notes.textContent = "";
  if (d.over_partner) {
    const li = document.createElement("li");
    li.textContent = "Your partner holds the bid: bid over it only where the gain over passing is significant (its CI above 0).";
    notes.appendChild(li);
  }
  notes.hidden = !d.over_partner;
  $("advice-surrender").textContent = "";
  const rows = d.table || [];
  const hasOut = rows.length && rows[0].p_out !== undefined;
  // the trump column only where a bid names its trump (no Dabb, V6.2); else the soloist names it after the Dabb
  const named = rows.some((r) => r.trump !== null && r.trump !== undefined);
  // runs of identical rows (a sure contract) show once, as the CLI prints them
  const key = (r) => [r.trump, r.p_make.toFixed(4), r.ev.toFixed(1), (r.p_out || 0).toFixed(3), (r.p_durch || 0).toFixed(3)].join("|");
  const runs = [];
  rows.forEach((r) => {
    const last = runs[runs.length - 1];
    if (last && key(last.r) === key(r) && r.bid !== d.max_bid && last.r.bid !== d.max_bid) last.r = r;
    else runs.push({ first: r.bid, r });
  });
  table("advice-table",
    [{ t: "bid" }, ...(named ? [{ t: "trump", l: true }] : []), { t: "P(make) [95% CI]" }, { t: win ? "P(win game) [95% CI]" : "E[objective] [95% CI]" },
      { t: "vs pass [95% CI]" }, ...(hasOut ? [{ t: "out" }, { t: "Durch" }] : [])],
    runs.map(({ first, r }) => ({
      cls: r.bid === d.max_bid ? "rec" : "",
      data: { bid: r.bid, first },
      cells: [
        { t: first === r.bid ? r.bid : `${first}–${r.bid}`, col: "bid", v: r.bid },
        ...(named ? [{ t: `${SYM[SUITS[r.trump]]} ${SUITS[r.trump]}`, l: true, col: "trump" }] : []),
        { t: pci(r.p_make, r.p_make_lo, r.p_make_hi), col: "p_make", v: r.p_make },
        { t: ci(r.ev, r.ev_lo, r.ev_hi), col: "ev", v: r.ev },
        { t: `${fv(r.minus_pass)}${CI}[${fv(r.minus_pass_lo, 0)}, ${fv(r.minus_pass_hi, 0)}]`, col: "minus_pass",
          v: r.minus_pass, cls: r.minus_pass >= 0 ? "plus" : "minus" },
        ...(hasOut ? [{ t: pc(r.p_out), col: "p_out" }, { t: pc(r.p_durch), col: "p_durch" }] : []),
      ],
    })));
  $("advice-foot").textContent = "P(make): the team reaches the bid (V4.6, V5.7, V6.6); brackets are 95% confidence " +
    "intervals; “vs pass”: the bid's expected objective minus passing's, on the same sampled deals" +
    (named ? "" : "; trump: the soloist names it after taking the Dabb (V4.2, V5.3)") +
    (hasOut ? "; out / Durch: share of samples in which the soloist goes out (V4.3, V5.4) / plays a sure Durch (V4.6)." : ".");
  chart("chart-advice", {
    type: "line",
    data: {
      labels: rows.map((r) => r.bid),
      datasets: [
        { label: "95% CI low", data: rows.map((r) => sc * r.ev_lo), borderWidth: 0, pointRadius: 0, fill: false },
        { label: "95% CI", data: rows.map((r) => sc * r.ev_hi), borderWidth: 0, pointRadius: 0,
          fill: "-1", backgroundColor: "rgba(31,111,80,.18)" },
        { label: win ? "P(win game) if you play at this bid, %" : "E[team − other team] at this bid",
          data: rows.map((r) => sc * r.ev), borderColor: "#1f6f50", backgroundColor: "#1f6f50",
          pointRadius: rows.map((r) => (r.bid === d.max_bid ? 6 : 2)), borderWidth: 2 },
        { label: `pass (${win ? pc(pv.mean) : sg(pv.mean)})`, data: rows.map(() => sc * pv.mean),
          borderColor: "#c0262d", borderDash: [6, 4], pointRadius: 0, borderWidth: 2 },
        { label: "P(make), %", data: rows.map((r) => 100 * r.p_make), yAxisID: "y2", borderColor: "#8a8a8f",
          borderDash: [2, 3], pointRadius: 0, borderWidth: 1.5 },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { labels: { filter: (item) => !item.text.startsWith("95% CI"), boxWidth: 14, font: { size: 11 } } },
        title: { display: true, text: `${win ? "P(win game)" : "Team objective"} by maximum bid, against passing` },
      },
      scales: {
        x: { title: { display: true, text: "bid" } },
        y: { title: { display: true, text: win ? "P(win game), %" : "points" } },
        y2: { position: "right", min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: "P(make), %" } },
      },
    },
  });
}

function renderMelds(d) {
  if (d.by_trump.length && d.by_trump[0].families_pairs === undefined) { renderClassMelds(d); return; }
  $("melds-foot").textContent = "R5: F families and pairs, Q fours and eights, B binokel, D trump nines.";
  const best = d.best_trump;
  $("melds-headline").textContent = `Best trump by meld: ${SYM[best]} ${S.lang === "de" ? DE_SUIT[best] : best} (${d.best_total})`;
  table("melds-table",
    [{ t: "trump", l: true }, { t: "F" }, { t: "Q" }, { t: "B" }, { t: "D" }, { t: "total" }, { t: "melds", l: true }],
    d.by_trump.map((m) => ({
      cls: m.trump === best ? "best" : "",
      data: { trump: m.trump },
      cells: [{ t: `${SYM[m.trump]} ${S.lang === "de" ? DE_SUIT[m.trump] : m.trump}`, l: true },
        { t: m.families_pairs, col: "families_pairs" }, { t: m.fours, col: "fours" },
        { t: m.binokel, col: "binokel" }, { t: m.nines, col: "nines" }, { t: m.total, col: "total" },
        { t: m.melds.map((x) => `${x.name} ${x.value}`).join(", ") || "no melds", l: true, wrap: true, col: "melds" }],
    })));
}

// the 80-card deck's melds by V6.3's classes (analyzer.mechanics.melds)
function renderClassMelds(d) {
  const top = d.by_trump.reduce((a, b) => (b.total > a.total ? b : a));   // ties: the first suit
  const best = top.trump;
  $("melds-headline").textContent = `Best trump by meld: ${SYM[best]} ${S.lang === "de" ? DE_SUIT[best] : best} (${top.total})`;
  table("melds-table",
    [{ t: "trump", l: true }, { t: "total" }, { t: "melds", l: true }],
    d.by_trump.map((m) => ({
      cls: m.trump === best ? "best" : "",
      data: { trump: m.trump },
      cells: [{ t: `${SYM[m.trump]} ${S.lang === "de" ? DE_SUIT[m.trump] : m.trump}`, l: true },
        { t: m.total, col: "total" },
        { t: m.melds.map((x) => `${x.name} ${x.points}`).join(", ") || "no melds", l: true, wrap: true, col: "melds" }],
    })));
  $("melds-foot").textContent = "V6.3: A trump flush and marriages, B arounds, C pinochle; melds count only with a trick holding a counter.";
}

const QLABEL = { meld: "meld (R5)", card_points: "card points (R7)", total: "total", score: "score" };

const DLABEL = { own_meld: "own meld", partner_meld: "partner's meld", team_meld: "team meld",
  team_points: "team card points", team_counters: "team counters", team_total: "team total", other_score: "other team" };

// a partners game's analysis (analyzer.analyses.analysis)
function renderTeamAnalysis(d) {
  const seat = Number(seatByParam($("seat").value).index);
  $("team-analysis-partners").innerHTML = `Your team: ${sidesText(d.seat !== undefined ? d.seat : seat)}` +
    (d.trump_shares ? "; you are the soloist." : ".");
  const dist = (x) => `${f1(x.mean)}${CI}[${f1(x.lo)}, ${f1(x.hi)}]`;
  let reach, trumpRows, dists;
  if (!d.trump_shares) {                // no Dabb: one block per trump (V6)
    const best = d.trumps.reduce((a, b) => (b.team_total.mean > a.team_total.mean ? b : a));
    $("analysis-headline").textContent = `Best trump: ${SYM[SUITS[best.trump]]} ${SUITS[best.trump]} ` +
      `(team total ${f0(best.team_total.mean)})`;
    $("team-at-bid").textContent = `Own meld ${best.own_meld}: ${best.own_melds.map((m) => `${m.name} ${m.points}`).join(", ") || "none"}.`;
    table("team-trumps",
      [{ t: "trump", l: true }, { t: "own meld" }, { t: "team meld [95% CI]" }, { t: "team total [95% CI]" },
        { t: `P(total ≥ ${best.p_reach[0].bid})` }],
      d.trumps.map((r) => ({ cls: r === best ? "best" : "", data: { trump: SUITS[r.trump] },
        cells: [{ t: `${SYM[SUITS[r.trump]]} ${SUITS[r.trump]}`, l: true }, { t: r.own_meld, col: "own_meld" },
          { t: dist(r.team_meld), col: "team_meld" },
          { t: dist(r.team_total), col: "team_total", v: r.team_total.mean },
          { t: pci(r.p_reach[0].p, r.p_reach[0].lo, r.p_reach[0].hi) }] })));
    reach = best.p_reach;
    dists = ["partner_meld", "team_meld", "team_counters", "team_total", "other_score"].map((k) => [k, best[k]]);
    $("team-reach-title").textContent = `P(team total ≥ bid), trump ${SYM[SUITS[best.trump]]}`;
  } else {                              // a Dabb game: this seat as soloist (V4, V5)
    const a = d.at_bid;
    const top = d.trump_shares.indexOf(Math.max(...d.trump_shares));
    $("analysis-headline").textContent = `Trump named: ${SYM[SUITS[top]]} ${SUITS[top]} in ${pc(d.trump_shares[top], 0)}`;
    $("team-at-bid").textContent = `At bid ${d.bid}: play ${pc(a.p_play)}, go out ${pc(a.p_out)} (V4.3, V5.4), ` +
      `sure Durch ${pc(a.p_durch)} (V4.6); made ${pc(a.p_make)} [${pc(a.p_make_lo)}–${pc(a.p_make_hi)}]; team score ` +
      `${sg(a.score)} [${sg(a.score_lo, 0)}, ${sg(a.score_hi, 0)}], objective ${sg(a.objective)} [${sg(a.objective_lo, 0)}, ${sg(a.objective_hi, 0)}].`;
    table("team-trumps", [{ t: "trump", l: true }, { t: "named after the exchange" }],
      d.trump_shares.map((p, t) => ({ data: { trump: SUITS[t] },
        cells: [{ t: `${SYM[SUITS[t]]} ${SUITS[t]}`, l: true }, { t: pc(p), col: "share", v: p }] })));
    reach = d.p_reach;
    dists = ["team_meld", "team_points", "team_total", "other_score"].map((k) => [k, d[k]]);
    $("team-reach-title").textContent = "P(team total ≥ bid)";
  }
  table("team-distributions",
    [{ t: "", l: true }, { t: "mean [95% CI]" }, { t: "10%" }, { t: "50%" }, { t: "90%" }],
    dists.map(([k, x]) => ({ data: { quantity: k },
      cells: [{ t: DLABEL[k] || k, l: true }, { t: dist(x), col: "mean", v: x.mean }, { t: f0(x.q10) },
        { t: f0(x.median) }, { t: f0(x.q90) }] })));
  // the rows where P still moves, thinned to about 16 (the chart and the API have all)
  let moving = reach.filter((r, i) => i === 0 || i === reach.length - 1 || (r.p > 0.005 && r.p < 0.995));
  if (moving.length > 16) {
    const step = Math.ceil(moving.length / 16);
    moving = moving.filter((r, i) => i === 0 || i === moving.length - 1 || i % step === 0);
  }
  table("team-reach", [{ t: "bid" }, { t: "P(total ≥ bid) [95% CI]" }],
    moving.map((r) => ({ data: { bid: r.bid }, cells: [{ t: r.bid }, { t: pci(r.p, r.lo, r.hi), col: "p", v: r.p }] })));
  chart("chart-team-reach", {
    type: "line",
    data: { labels: reach.map((r) => r.bid), datasets: [
      { label: "lo", data: reach.map((r) => 100 * r.lo), borderWidth: 0, pointRadius: 0, fill: false },
      { label: "95% CI", data: reach.map((r) => 100 * r.hi), borderWidth: 0, pointRadius: 0, fill: "-1",
        backgroundColor: "rgba(31,111,80,.18)" },
      { label: "P(team total ≥ bid), %", data: reach.map((r) => 100 * r.p), borderColor: "#1f6f50", pointRadius: 1.5, borderWidth: 2 }] },
    options: { interaction: { mode: "index", intersect: false },
      plugins: { legend: { labels: { filter: (i) => i.text !== "lo" && i.text !== "95% CI", boxWidth: 14 } } },
      scales: { x: { title: { display: true, text: "bid" } }, y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
  });
}

function renderAnalysis(d) {
  // a partners game's result: the soloist's team (a Dabb game) or each trump's team totals (no Dabb)
  const team = d.trump_shares !== undefined || (d.trumps || []).some((r) => r.team_total !== undefined);
  $("analysis-team").hidden = !team;
  $("analysis-solo").hidden = team;
  $("analysis-meta").textContent = `samples ${d.samples} · seed ${params().seed || 0}`;
  if (team) { renderTeamAnalysis(d); return; }
  const rec = d.recommendation;
  $("analysis-headline").textContent = rec
    ? (rec.trump === "Durch" ? "Play Durch (R4)" : `Discard ${cardsText(rec.discard)}, trump ${SYM[rec.trump] || rec.trump}`)
    : "Tapp unknown: sampled per deal";
  $("analysis-meta").textContent = `seat ${d.seat} · samples ${d.samples} · seed ${d.seed}` + (d.tapp ? ` · Tapp ${d.tapp}` : "") +
    (d.play && d.play !== "heuristic" ? ` · card play ${d.play}` : "");
  $("analysis-candidates-box").hidden = !d.candidates;
  if (d.candidates) {
    table("analysis-candidates",
      [{ t: "#" }, { t: "trump", l: true }, { t: "discard", l: true }, { t: "mean total ± 95% CI" },
        { t: "vs best ± 95% CI" }, { t: "fast est." }, { t: "P(all tricks)" }],
      d.candidates.map((c) => ({
        cls: c.recommended ? "rec" : "",
        cells: [{ t: c.rank }, { t: c.trump === "Durch" ? "Durch" : `${SYM[c.trump] || ""} ${c.trump}`, l: true },
          { t: cardsText(c.discard), l: true, col: "discard" },
          { t: c.trump === "Durch" ? "" : pmi(c.mean_total, c.total_lo, c.total_hi), col: "mean_total", v: c.mean_total },
          { t: c.trump === "Durch" ? "" : `${sg(c.diff_vs_best)} ± ${((c.diff_hi - c.diff_lo) / 2).toFixed(1)}` },
          { t: c.trump === "Durch" ? "" : f0(c.fast_value) },
          { t: c.p_all_tricks === null || c.p_all_tricks === undefined ? "" : pci(c.p_all_tricks, c.p_lo, c.p_hi) }],
      })));
  }
  const dist = d.distributions || [];
  table("analysis-distributions",
    [{ t: "", l: true }, { t: "mean ± 95% CI" }, { t: "sd" }, { t: "5%" }, { t: "25%" }, { t: "50%" }, { t: "75%" },
      { t: "95%" }, { t: "min" }, { t: "max" }],
    dist.map((r) => ({
      data: { quantity: r.quantity },
      cells: [{ t: r.quantity === "score" ? `score at ${d.score_bid}` : QLABEL[r.quantity] || r.quantity, l: true },
        { t: pmi(r.mean, r.ci_lo, r.ci_hi), col: "mean", v: r.mean }, { t: f1(r.sd) },
        ...["q05", "q25", "q50", "q75", "q95", "min", "max"].map((k) => ({ t: f0(r[k]), col: k }))],
    })));
  for (const q of ["meld", "card_points", "total", "score"]) {
    const h = (d.histograms || []).filter((r) => r.quantity === q);
    chart(`chart-hist-${q}`, {
      type: "bar",
      data: { labels: h.map((r) => f0(r.bin_lo)),
        datasets: [{ label: "share of deals, %", data: h.map((r) => 100 * r.share), backgroundColor: "#1f6f50",
          barPercentage: 1.0, categoryPercentage: 0.95 }] },
      options: { plugins: { legend: { display: false },
        title: { display: true, text: q === "score" ? `score at ${d.score_bid} (R8)` : QLABEL[q] } },
        scales: { y: { title: { display: true, text: "% of deals" } } } },
    });
  }
  const bids = d.bids || [];
  chart("chart-bids", {
    type: "line",
    data: {
      labels: bids.map((r) => r.bid),
      datasets: [
        { label: "lo", data: bids.map((r) => 100 * r.p_make_lo), borderWidth: 0, pointRadius: 0, fill: false },
        { label: "95% CI", data: bids.map((r) => 100 * r.p_make_hi), borderWidth: 0, pointRadius: 0, fill: "-1",
          backgroundColor: "rgba(31,111,80,.18)" },
        { label: "P(make), %", data: bids.map((r) => 100 * r.p_make), borderColor: "#1f6f50", pointRadius: 1.5, borderWidth: 2 },
        { label: "E[soloist score]", data: bids.map((r) => r.e_score), yAxisID: "y2", borderColor: "#8a5a00",
          borderDash: [5, 3], pointRadius: 0, borderWidth: 1.5 },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      plugins: { legend: { labels: { filter: (i) => i.text !== "lo" && i.text !== "95% CI", boxWidth: 14 } } },
      scales: { x: { title: { display: true, text: "bid" } }, y: { min: 0, max: 100, title: { display: true, text: "P(make), %" } },
        y2: { position: "right", grid: { drawOnChartArea: false }, title: { display: true, text: "E[score]" } } },
    },
  });
  // rows where P(make) or the contract mix still moves (the rest repeat; the API has all)
  const keep = bids.filter((r, i) => i === 0 || i === bids.length - 1 || (r.p_make > 0.005 && r.p_make < 0.995)
    || (r.p_surrender > 0 && r.p_surrender < 1) || r.p_durch > 0);
  table("analysis-bids",
    [{ t: "bid" }, { t: "P(make) [95% CI]" }, { t: "E[score] ± 95% CI" }, { t: "surrender" }, { t: "Durch" }],
    keep.map((r) => ({ data: { bid: r.bid },
      cells: [{ t: r.bid }, { t: pci(r.p_make, r.p_make_lo, r.p_make_hi), col: "p_make", v: r.p_make },
        { t: pmi(r.e_score, r.e_score_lo, r.e_score_hi), col: "e_score", v: r.e_score },
        { t: pc(r.p_surrender) }, { t: pc(r.p_durch) }] })));
  table("analysis-trumps",
    [{ t: "trump", l: true }, { t: "chosen" }, { t: "share [95% CI]" }, { t: "mean meld" }, { t: "mean total ± 95% CI" }],
    (d.trumps || []).map((r) => ({
      cells: [{ t: `${r.symbol} ${r.trump}`, l: true }, { t: r.chosen },
        { t: r.chosen ? pci(r.share, r.share_lo, r.share_hi) : "" }, { t: r.chosen ? f1(r.mean_meld) : "" },
        { t: r.chosen ? pmi(r.mean_total, r.total_lo, r.total_hi) : "" }] })));
}

// ------------------------------------------------------------------ rules (variants, from /api/info)
function setRules(name) {
  const r = (S.info && S.info.rules || []).find((x) => x.name === name);
  if (!r) return false;
  $("rules").value = name;
  S.rules = r;
  SIZE.hand = r.hand_size;
  SIZE.tapp = r.tapp_size;
  $("rules-desc").textContent = `${r.players} players · ${r.deck} · hand ${r.hand_dabb} · ${r.section}`;
  // the seats in play, by the game's own names; partners shown beside each seat (V1)
  const before = $("seat").selectedIndex;
  $("seat").textContent = "";
  r.seats.forEach((row) => {
    const o = document.createElement("option");
    o.value = row.param;
    o.textContent = row.name + (DE_SEAT[row.name] ? ` (${DE_SEAT[row.name]})` : "") +
      (row.partner ? ` · partner ${row.partner}` : "");
    $("seat").appendChild(o);
  });
  $("seat").selectedIndex = Math.max(0, Math.min(before, r.seats.length - 1));
  // (an empty cell for a lone soloist's table: the grid keeps its two columns)
  $("partners").innerHTML = r.teams ? `Partners (V1): ${sidesText()}` : "";
  // a game without a Dabb (V6.1) has no Tapp to enter
  for (const id of ["target-tapp", "tapp-holding", "tapp-text-box"]) $(id).hidden = !r.tapp_size;
  if (!r.tapp_size) { S.tapp.fill(0); setTarget("hand"); }
  $("picker-hint").textContent = `Click a card to add a copy (the deck has ${COPIES[r.copies] || r.copies} of each); ` +
    "click a card below to take it back.";
  $("auction-label").textContent = `Auction so far (${r.auction_rule}${r.auction_form === "open" ? ": open bidding, jumps allowed" : ""})`;
  // scores: one per seat (R9) or one per team, yours first (V4.6, V5.7, V6.6)
  const units = r.score_units || 3;
  $("score-rh").hidden = units < 3;
  $("score-fh").placeholder = units === 2 ? "your team" : "FH";
  $("score-mh").placeholder = units === 2 ? "other team" : "MH";
  $("score-fh").setAttribute("aria-label", units === 2 ? "your team's game total" : "forehand's game score");
  $("score-mh").setAttribute("aria-label", units === 2 ? "the other team's game total" : "middlehand's game score");
  [...$("objective").options].forEach((o) => { o.hidden = o.value !== "" && !r.objectives.includes(o.value); });
  if ($("objective").selectedOptions[0] && $("objective").selectedOptions[0].hidden) $("objective").value = "";
  $("objective-relative").textContent = r.teams ? "relative: team − other team" : "relative: own − mean of opponents";
  // the card plays this game takes (the rest would be refused: /api/info rules[].plays)
  [...$("play").options].forEach((o) => { o.hidden = !(r.plays || ["heuristic"]).includes(o.value); });
  if ($("play").selectedOptions[0] && $("play").selectedOptions[0].hidden) { $("play").value = "heuristic"; onPlayChange(); }
  $("bid").min = r.opening;
  $("bid").step = r.step;
  $("bid").placeholder = r.opening;
  renderPicker();
  return true;
}

async function onRulesChange() {
  setRules($("rules").value);
  // the same cards in the new deck's notation (a 9 is a 7 in grupp, absent in binokel-40)
  $("hand-text").value = codes(S.hand).join(" ");
  $("tapp-text").value = codes(S.tapp).join(" ");
  S.auction = [];
  clearError();
  await parseText("hand");
  await parseText("tapp");
  await refreshAuction();
  saveUrl();
}

// ------------------------------------------------------------------ wiring
async function init() {
  renderPicker();
  $("target-hand").addEventListener("click", () => setTarget("hand"));
  $("target-tapp").addEventListener("click", () => setTarget("tapp"));
  $("labels").addEventListener("change", () => {
    S.lang = $("labels").value; renderPicker(); saveUrl();
    if (S.view === "melds" && !$("result-melds").hidden) run("melds");
  });
  for (const w of ["hand", "tapp"]) {
    $(`${w}-text`).addEventListener("input", () => onTextInput(w));
    $(`${w}-text`).addEventListener("focus", () => setTarget(w));
  }
  $("clear-hand").addEventListener("click", () => {
    S.hand.fill(0); S.tapp.fill(0); $("hand-text").value = ""; $("tapp-text").value = "";
    for (const k of Object.keys(msgs)) cardsMsg("", k);
    setTarget("hand"); updatePicker(); saveUrl();
  });
  $("call-pass").addEventListener("click", () => call("pass"));
  $("call-raise").addEventListener("click", () => call($("call-raise").dataset.call));
  $("call-undo").addEventListener("click", () => { S.auction.pop(); clearError(); refreshAuction(); saveUrl(); });
  $("call-clear").addEventListener("click", () => { S.auction = []; clearError(); refreshAuction(); saveUrl(); });
  for (const id of ["seat", "objective", "samples", "asamples", "seed", "bid", "inference", "score-fh", "score-mh", "score-rh"]) {
    $(id).addEventListener("change", saveUrl);
  }
  $("seat").addEventListener("change", auctionStatus);
  $("call-jump").addEventListener("click", () => {
    const v = $("call-bid").value.trim();
    if (v) jump(v);
  });
  $("play").addEventListener("change", onPlayChange);
  document.querySelectorAll(".actions .primary").forEach((b) => b.addEventListener("click", () => run(b.dataset.view)));
  $("cancel").addEventListener("click", async () => {
    S.runToken++;
    await cancelJob();
    hideProgress();
    showError("cancelled");
  });
  $("copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("copy-link").textContent = "Link copied"; } catch (e) {
      window.prompt("Copy this link:", location.href);
    }
    setTimeout(() => { $("copy-link").textContent = "Copy link"; }, 1500);
  });
  const info = await api("GET", "/api/info");
  if (info.ok) {
    S.info = info.data;
    const ms = info.data.max_samples;
    $("samples").max = ms.advise;
    $("asamples").max = ms.analyze;
    $("caps").textContent = `This server answers at most ${ms.advise.toLocaleString("en")} samples for advice and ` +
      `${ms.analyze.toLocaleString("en")} for an analysis per request` +
      (info.data.max_samples_pimc ? ` (with PIMC card play ${info.data.max_samples_pimc.advise.toLocaleString("en")} ` +
        `and ${info.data.max_samples_pimc.analyze.toLocaleString("en")}: it plays a deal ~1000x slower).` : ".");
    $("rules").textContent = "";
    (info.data.rules || []).forEach((r) => {
      const o = document.createElement("option");
      o.value = r.name; o.textContent = r.name;
      $("rules").appendChild(o);
    });
    setRules("binokel-48");
    $("rules").addEventListener("change", onRulesChange);
    Object.entries(info.data.examples || {}).forEach(([k, v]) => {
      const o = document.createElement("option");
      o.value = k; o.textContent = `${k.replace(/_/g, " ")} (${v.seat || "forehand"})`;
      $("example").appendChild(o);
    });
  }
  $("example").addEventListener("change", async () => {
    const ex = S.info && S.info.examples[$("example").value];
    if (!ex) return;
    if ($("rules").value !== "binokel-48") setRules("binokel-48");   // the examples are binokel-48 hands
    $("hand-text").value = ex.hand;
    $("tapp-text").value = ex.tapp || "";
    $("seat").value = SEAT_PARAM[ex.seat || "forehand"];
    S.auction = [];
    await parseText("hand");
    await parseText("tapp");
    await refreshAuction();
    saveUrl();
    $("example").value = "";
  });
  await loadUrl();
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", init);
