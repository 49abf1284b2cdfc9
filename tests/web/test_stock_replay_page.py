"""The replay view (/replay, issue 27) for a game with a stock (binokel-2, V7) in headless
Chromium: load a recorded deal, step through the stock phase (the turned trump under the
stock, the draws and the melds shown, V7.1-V7.3) into the endgame (V7.4), see the values
of the legal actions (the library's: PIMC from the player's view while the stock lasts,
exact after it), try another card and see both lines and the points difference; the URL
restores the view on a phone (390 px) with no horizontal scroll.  Screenshots go to a
temporary folder (BINOKEL_SCREENSHOTS to keep them elsewhere)."""
from __future__ import annotations

import os

from analyzer.analyses.stock_replay import line_at, sample, steps, values_at
from analyzer.mechanics.record import format_records
from analyzer.mechanics.ruleset import GAMES

WAIT = 90_000          # the machine is shared: generous browser waits (ms)
GAME = next(g for g in GAMES.values() if g.stock.size)        # asked of the RuleSet
REC = sample(GAME, 7)          # binokel play --rules binokel-2 --seed 7 --policy heuristic
TEXT = format_records([REC])


def shots(tmp_path):
    d = os.environ.get("BINOKEL_SCREENSHOTS") or str(tmp_path)
    os.makedirs(d, exist_ok=True)
    return d


def at_step(page, i):
    page.wait_for_function(f"document.getElementById('rp-step').dataset.step === '{i}'",
                           timeout=WAIT)


def values(page, seat):
    return page.eval_on_selector_all(
        f"#rp-table .rp-seat[data-seat='{seat}'] .legal[data-value]",
        "cs => Object.fromEntries(cs.map(c => [c.dataset.card, c.dataset.value]))")


def test_step_through_a_stock_deal_value_and_try_another_card(page, server, browser, tmp_path):
    st = steps(REC)
    page.goto(server.base + "/replay")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.evaluate("document.getElementById('rp-auto').checked = false")   # on request only
    page.fill("#rp-text", TEXT)
    page.click("#rp-load")
    at_step(page, 0)
    assert page.evaluate("document.body.classList.contains('stock')")
    # the turned trump lies face up under the stock (V7.1)
    assert page.eval_on_selector("#rp-stock .rp-pile .card", "c => c.dataset.card") == st[0].turned
    page.fill("#rp-worlds", "2")          # keep PIMC small
    page.evaluate("document.activeElement.blur()")     # the arrow keys step the deal
    # the first meld decision (V7.3): the winner's melds and pass are the actions
    m = next(s for s in st if s.phase == "meld" and len(s.legal) > 1)
    for _ in range(m.index):
        page.keyboard.press("ArrowRight")
    at_step(page, m.index)
    assert "meld after trick" in page.text_content("#rp-step")
    page.click("#rp-value")
    page.wait_for_function(f"document.body.dataset.values === '{m.index}'", timeout=WAIT)
    acts = page.eval_on_selector_all(f".rp-seat[data-seat='{m.to_play}'] .rp-act",
                                     "bs => bs.map(b => b.dataset.card)")
    assert acts == list(m.legal)
    h = values_at(REC, m.index, 2, 0)
    assert values(page, m.to_play) == {v.label: str(int(v.diff) if v.diff == int(v.diff)
                                                    else v.diff) for v in h.values}
    # another meld decision while the stock lasts: both lines by PIMC from each view
    other_act = next(a for a in m.legal if a != m.next)
    page.click(f".rp-seat[data-seat='{m.to_play}'] .rp-act[data-card='{other_act}']")
    page.wait_for_selector("#rp-line[data-state='done']", timeout=WAIT)
    want = line_at(REC, m.index, other_act)
    assert page.get_attribute("#rp-line", "data-method") == "pimc" == want["method"]
    diff = page.eval_on_selector("#rp-line-score tr[data-row='points-diff']",
                                 "tr => [...tr.cells].slice(1).map(c => c.textContent)")
    assert diff == [("+" if x > 0 else "") + str(x) for x in want["diff"]["points"]]
    page.screenshot(path=f"{shots(tmp_path)}/replay-stock-meld-desktop.png", full_page=True)
    # the next step: the melds shown and the draws after the trick (V7.2, V7.3)
    page.keyboard.press("ArrowRight")
    at_step(page, m.index + 1)
    nxt = st[m.index + 1]
    shown = page.eval_on_selector_all("#rp-stock .rp-melds > div", "ds => ds.length")
    assert shown == len(nxt.melds)
    assert page.text_content("#rp-stock .rp-pile").count("drew:") == (1 if nxt.draws else 0)
    # the endgame (V7.4): exact values; another card: both lines and the difference
    s = next(s for s in st if s.stock_left == 0 and s.phase == "play"
             and len([x for x in s.legal if x != "claim"]) > 1)
    page.click("#rp-last")
    at_step(page, len(st) - 1)
    assert "deal over" in page.text_content("#rp-step")
    page.evaluate(f"location.hash = location.hash.replace(/s=\\d+/, 's={s.index}')")
    at_step(page, s.index)
    page.click("#rp-value")
    page.wait_for_function(f"document.body.dataset.values === '{s.index}'", timeout=WAIT)
    h = values_at(REC, s.index)
    assert h.exact
    assert values(page, s.to_play) == {v.label: str(int(v.diff)) for v in h.values
                                       if not v.wins_game}
    other = next(c for c in s.legal if c != s.next and c != "claim")
    page.click(f"#rp-table .rp-seat[data-seat='{s.to_play}'] button.card[data-card='{other}']")
    page.wait_for_selector("#rp-line[data-state='done']", timeout=WAIT)
    want = line_at(REC, s.index, other)
    assert page.get_attribute("#rp-line", "data-method") == "exact" == want["method"]
    alt = page.eval_on_selector_all("#rp-line-alt .card:not(.before)",
                                    "cs => cs.map(c => c.dataset.card)")
    assert alt == [e[3] for e in want["alt"]["events"] if e[2] == "play"]
    diff = page.eval_on_selector("#rp-line-score tr[data-row='points-diff']",
                                 "tr => [...tr.cells].slice(1).map(c => c.textContent)")
    assert diff == [("+" if x > 0 else "") + str(x) for x in want["diff"]["points"]]
    d = shots(tmp_path)
    page.screenshot(path=f"{d}/replay-stock-desktop.png", full_page=True)

    # the URL holds the record and the step: a phone restores the view
    url = page.url
    assert f"#d=1&s={s.index}&r=z" in url
    phone = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True,
                             is_mobile=True)
    try:
        phone.goto(url)
        at_step(phone, s.index)         # auto valuing is on: exact, at once (V7.4)
        phone.wait_for_function(f"document.body.dataset.values === '{s.index}'", timeout=WAIT)
        phone.click(f"#rp-table .rp-seat[data-seat='{s.to_play}'] button.card[data-card='{other}']")
        phone.wait_for_selector("#rp-line[data-state='done']", timeout=WAIT)
        phone.screenshot(path=f"{d}/replay-stock-phone.png", full_page=True)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        small = phone.eval_on_selector_all(
            "#rp-table button, .rp-nav button, #rp-load, #rp-value, #rp-save, header a",
            "bs => bs.filter(b => b.offsetParent).map(b => b.getBoundingClientRect())"
            ".filter(r => r.width < 40 || r.height < 40).length")
        assert small == 0
        phone.uncheck("#rp-auto")      # the stock phase: no PIMC run left behind
        phone.goto(url.replace(f"s={s.index}", f"s={m.index + 1}"))
        at_step(phone, m.index + 1)
        phone.screenshot(path=f"{d}/replay-stock-phone-stock.png", full_page=True)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        phone.close()
