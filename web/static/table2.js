// The table for two (web/stock_table.py): every request carries the whole table (seed, seat,
// policy, moves); the server replays it and answers what you see.  The address bar holds the
// same parameters, so a reload restores the table.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let info = null;
  let view = null;
  let busy = false;

  function setReady(ok) { document.body.dataset.ready = ok ? "1" : "0"; }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function cardSpan(c, cls) {
    const red = c.suit === "H" || c.suit === "D";
    const trump = view && c.suit === view.trump;
    return `<span class="card-mini${red ? " red" : ""}${trump ? " trumpcard" : ""}${cls ? " " + cls : ""}">${esc(c.text)}</span>`;
  }

  function showError(msg) {
    const e = $("error");
    e.textContent = msg || "";
    e.hidden = !msg;
  }

  async function call(op, body) {
    const r = await fetch("/api/table/" + op, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    return data;
  }

  async function run(op, body) {
    if (busy) return;
    busy = true;
    setReady(false);
    document.querySelectorAll("#board button").forEach((b) => { b.disabled = true; });
    if (op === "act") $("turn").textContent = "The program is thinking…";
    try {
      const v = await call(op, body);
      showError("");
      render(v);
    } catch (e) {
      showError(e.message);
      if (view) render(view);
    } finally {
      busy = false;
      setReady(true);
    }
  }

  function tableBody() {
    const q = Object.assign({}, view.query);
    return q;
  }

  function fillSelect(sel, items, value) {
    sel.innerHTML = items.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join("");
    if (value != null && items.some(([v]) => v === value)) sel.value = value;
  }

  function fillSeats(game) {
    const g = info.games.find((x) => x.name === game) || info.games[0];
    fillSelect($("seat"), g.seats.map((s, i) => [s, i === 0 ? `${s} (you lead first)` : `${s} (you deal)`]), $("seat").value);
  }

  function render(v) {
    view = v;
    $("board").hidden = false;
    $("score-panel").hidden = false;
    $("log-panel").hidden = false;
    $("rules").value = v.rules;
    fillSeats(v.rules);
    $("seat").value = v.seats[v.seat];
    $("policy").value = v.policy;
    $("seed").value = v.seed;
    const url = "/table?" + new URLSearchParams(v.query).toString();
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);

    $("trump").innerHTML = `<span class="${v.trump === "H" || v.trump === "D" ? "red" : ""}">${esc(v.trump_symbol)}</span>`;
    $("turned").innerHTML = v.turned.where === "stock" ? cardSpan(v.turned) + ' <span class="muted small">under the stock</span>'
      : cardSpan(v.turned) + ' <span class="muted small">drawn</span>';
    $("stock").textContent = v.stock;
    $("stock").dataset.stock = v.stock;
    const opp = v.opponent;
    $("opp-name").textContent = `Program (${opp.name})`;
    $("opp-count").textContent = opp.count;
    $("opp-known-label").textContent = opp.all_known ? "— all known now (V7.4)" : (opp.known.length ? "— shown:" : "");
    $("opp-known").innerHTML = opp.known.map((c) => cardSpan(c) + (c.shown.length ? `<span class="muted small">${esc(c.shown.join(", "))}</span>` : "")).join(" ");
    $("table-cards").innerHTML = v.table.length ? v.table.map((c) => `${esc(c.who)}: ` + cardSpan(c)).join(" ") : '<span class="muted">—</span>';
    $("last-trick").innerHTML = v.last_trick.length
      ? v.last_trick.map((c) => `${esc(c.who)} ${cardSpan(c)}`).join(" ") + ` → ${esc(v.seats[v.last_winner])}`
      : "—";

    const turn = $("turn");
    if (v.phase === "over") turn.textContent = "The deal is over";
    else if (v.phase === "meld") turn.textContent = "You won the trick: show a meld or pass (V7.3)";
    else turn.textContent = v.table.length ? "Your turn: play a card to the trick" : "Your lead";
    turn.dataset.phase = v.phase;

    const legal = v.phase === "play";
    $("hand-note").textContent = legal
      ? (v.stock > 0 ? "(no duty to follow while the stock lasts, V7.2)" : "(follow suit, else trump, V7.4)") : "";
    $("hand").innerHTML = v.hand.map((c) => {
      const red = c.suit === "H" || c.suit === "D";
      const tag = c.shown.length ? `<span class="tag">shown: ${esc(c.shown.join(", "))}</span>` : (c.suit === v.trump ? '<span class="tag">trump</span>' : "");
      return `<button type="button" class="card${red ? " red" : ""}${c.token ? " legal" : ""}" data-code="${esc(c.code)}"` +
        (c.token ? ` data-token="${esc(c.token)}"` : " disabled") + ` aria-label="${esc(c.text)}${c.token ? "" : " (not playable now)"}">` +
        `<span>${esc(c.text)}</span>${tag}</button>`;
    }).join("");
    $("actions").innerHTML = v.actions.map((a) =>
      `<button type="button" class="${a.kind === "claim" ? "primary" : ""}" data-token="${esc(a.token)}" data-kind="${esc(a.kind)}">` +
      `${a.kind === "meld" ? "Show " : ""}${esc(a.label)}</button>`).join("");

    const res = $("result");
    if (v.result) {
      res.hidden = false;
      res.textContent = `${v.result.text}. Points: ` +
        v.seats.map((s, i) => `${i === v.seat ? "you" : "program"} (${s}) ${v.result.points[i]}`).join(", ");
      res.dataset.points = v.result.points.join(",");
    } else {
      res.hidden = true;
      res.dataset.points = "";
    }
    $("hint-btn").disabled = v.phase === "over" || v.hand.length === 0 && v.actions.length === 0;
    if (!v.phase || v.phase === "over") $("hint").hidden = true;
    if ($("hint").dataset.moves !== String(v.n_moves)) $("hint").hidden = true;

    $("scores").querySelector("tbody").innerHTML = v.scores.map((s) =>
      `<tr class="${s.you ? "you" : ""}" data-seat="${s.seat}" data-deal="${s.deal}"><td>${s.you ? "you" : "program"} (${esc(s.name)})</td>` +
      `<td>${s.melds}</td><td>${s.cards}</td><td>${s.deal}</td><td>${s.game}</td></tr>`).join("");

    // the latest trick first (the list counts down: <ol reversed>)
    $("log").innerHTML = v.log.slice().reverse().map((t) => {
      const cards = t.cards.map((c) => `${esc(c.who)} ${cardSpan(c)}`).join(", ");
      const parts = [cards];
      if (t.winner !== null) parts.push(`won by ${esc(v.seats[t.winner])} (${t.points})`);
      if (t.meld) parts.push(`${esc(v.seats[t.meld.seat])} shows ${esc(t.meld.name)} ${t.meld.value}: ${esc(t.meld.cards.join(" "))}`);
      if (t.draws.length) parts.push("draws: " + t.draws.map((d) => `${esc(v.seats[d.seat])} ${d.card ? esc(d.card) : "a card"}`).join(", "));
      t.notes.forEach((n) => parts.push(esc(n)));
      return `<li>${parts.join("; ")}</li>`;
    }).join("");
    if (!v.log.length) $("log").innerHTML = '<li class="muted">no trick yet</li>';
    $("log").scrollTop = 0;
  }

  function renderHint(h) {
    const box = $("hint");
    box.hidden = false;
    box.dataset.moves = String(h.n_moves);
    $("hint-method").textContent = `${h.method}. Value: ${h.value}.`;
    const fmt = (x, d) => (x === null || x === undefined ? "—" : (x >= 0 ? "+" : "") + x.toFixed(d));
    $("hint-table").querySelector("tbody").innerHTML = h.actions.map((a) =>
      `<tr class="${a.best ? "best" : ""}" data-token="${esc(a.token)}"><td>${esc(a.label)}${a.note ? " — " + esc(a.note) : ""}</td>` +
      `<td data-col="mean">${fmt(a.mean, 1)}</td><td data-col="se">${a.se === null || a.se === undefined ? "—" : a.se.toFixed(1)}</td>` +
      `<td data-col="n">${a.n}</td></tr>`).join("");
  }

  async function askHint() {
    if (busy || !view) return;
    busy = true;
    setReady(false);
    $("hint-busy").hidden = false;
    try {
      const body = tableBody();
      const w = $("worlds").value.trim();
      if (w !== "") body.worlds = Number(w);
      renderHint(await call("hint", body));
      showError("");
    } catch (e) {
      showError(e.message);
    } finally {
      $("hint-busy").hidden = true;
      busy = false;
      setReady(true);
    }
  }

  function formBody() {
    const body = { rules: $("rules").value, seat: $("seat").value, policy: $("policy").value };
    const s = $("seed").value.trim();
    if (s !== "") body.seed = Number(s);
    return body;
  }

  async function start() {
    setReady(false);
    try {
      const r = await fetch("/api/table/info");
      info = await r.json();
    } catch (e) {
      showError("the server did not answer: " + e.message);
      setReady(true);
      return;
    }
    fillSelect($("rules"), info.games.map((g) => [g.name, g.name]));
    fillSeats($("rules").value);
    fillSelect($("policy"), Object.entries(info.policies).map(([k, d]) => [k, k]), info.default_policy);
    $("policy").title = Object.entries(info.policies).map(([k, d]) => `${k}: ${d}`).join("\n");
    $("worlds").value = info.hint_worlds.default;
    $("worlds").max = info.hint_worlds.max;
    $("seed").max = info.max_seed;
    $("rules").addEventListener("change", () => fillSeats($("rules").value));
    $("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); $("hint").hidden = true; run("new", formBody()); });
    $("random-seed").addEventListener("click", () => { $("seed").value = ""; $("hint").hidden = true; run("new", formBody()); });
    $("hand").addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-token]");
      if (b && view) run("act", Object.assign(tableBody(), { action: b.dataset.token }));
    });
    $("actions").addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-token]");
      if (b && view) run("act", Object.assign(tableBody(), { action: b.dataset.token }));
    });
    $("hint-btn").addEventListener("click", askHint);

    const q = new URLSearchParams(location.search);
    if (q.has("seed")) {
      const body = {};
      for (const k of ["rules", "seat", "policy", "before", "moves"]) if (q.get(k)) body[k] = q.get(k);
      const seed = Number(q.get("seed"));
      body.seed = Number.isSafeInteger(seed) ? seed : q.get("seed");
      busy = false;
      await run("state", body);
    } else {
      await run("new", formBody());
    }
  }

  document.addEventListener("DOMContentLoaded", start);
})();
