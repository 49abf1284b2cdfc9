"""The replay view (/replay, issue 27) in headless Chromium: load a recorded deal, step
through it with the buttons and the arrow keys, see the values of the legal cards (the
library's), try another card and see the changed line; the URL restores the view; a
phone (390 px) has no horizontal scroll and tap targets of at least 40 px.  Screenshots
go to a temporary folder (BINOKEL_SCREENSHOTS to keep them elsewhere)."""
from __future__ import annotations

import os

from analyzer.analyses.replay import line_at, steps, values_at
from analyzer.mechanics.cards import card_code
from analyzer.mechanics.record import format_records
from analyzer.search.record_play import play_record

WAIT = 60_000          # the machine is shared: generous browser waits (ms)
DEAL = play_record("binokel-48", seed=7, soloist=0, trump=1)    # binokel play --seed 7
TEXT = format_records([DEAL])
LOW = DEAL.rules.deck.low_card


def shots(tmp_path):
    d = os.environ.get("BINOKEL_SCREENSHOTS") or str(tmp_path)
    os.makedirs(d, exist_ok=True)
    return d


def at_step(page, i):
    page.wait_for_function(f"document.getElementById('rp-step').dataset.step === '{i}'", timeout=WAIT)


def test_load_step_value_and_try_another_card(page, server, browser, tmp_path):
    page.goto(server.base + "/replay")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.fill("#rp-text", TEXT)
    page.click("#rp-load")
    at_step(page, 0)
    st = steps(DEAL)
    # step with the buttons and the keyboard (R6: the record's cards, in order)
    page.click("#rp-next")
    at_step(page, 1)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at_step(page, 3)
    assert page.eval_on_selector_all("#rp-trick .card", "cs => cs.map(c => c.dataset.card)") == \
        [card_code(c, LOW) for _, c in st[3].last[1]]             # trick 1, complete
    page.keyboard.press("ArrowLeft")
    at_step(page, 2)
    assert page.eval_on_selector_all("#rp-trick .card", "cs => cs.map(c => c.dataset.card)") == \
        [card_code(c, LOW) for _, c in st[2].trick]
    # a late decision: exact double-dummy values, coloured cards
    s = next(s for s in st[-12:] if len(s.legal) > 1)
    page.click("#rp-last")
    at_step(page, len(st) - 1)
    assert "deal over" in page.text_content("#rp-step")
    for _ in range(len(st) - 1 - s.index):
        page.keyboard.press("ArrowLeft")
    at_step(page, s.index)
    page.wait_for_function(f"document.body.dataset.values === '{s.index}'", timeout=WAIT)
    h = values_at(DEAL, s.index)
    shown = page.eval_on_selector_all(
        f"#rp-table .rp-seat[data-seat='{s.to_play}'] button.card.legal",
        "cs => Object.fromEntries(cs.map(c => [c.dataset.card, c.dataset.value]))")
    assert shown == {card_code(c.card, LOW): str(c.dd) for c in h.cards}
    # another card: the changed line, both lines to the end, the score difference
    other = next(c for c in s.legal if c != s.next_card)
    code = card_code(other, LOW)
    page.click(f"#rp-table .rp-seat[data-seat='{s.to_play}'] button.card[data-card='{code}']")
    page.wait_for_selector("#rp-line[data-state='done']", timeout=WAIT)
    want = line_at(DEAL, s.index, other)
    assert page.get_attribute("#rp-line", "data-method") == "dd"
    alt = page.eval_on_selector_all("#rp-line-alt .card:not(.before)", "cs => cs.map(c => c.dataset.card)")
    assert alt == [card_code(c, LOW) for _, _, c in want["alt"]["cards"]]
    diff = page.eval_on_selector(
        "#rp-line-score tr[data-row='score-diff']", "tr => [...tr.cells].slice(1).map(c => c.textContent)")
    assert diff == [("+" if x > 0 else "") + str(x) for x in want["diff"]["score"]]
    d = shots(tmp_path)
    page.screenshot(path=f"{d}/replay-desktop.png", full_page=True)

    # the URL holds the record and the step: a new tab restores the view
    url = page.url
    assert "#d=1&s=" in url and "&r=z" in url and len(url) < 1500
    other_tab = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True, is_mobile=True)
    try:
        other_tab.goto(url)
        other_tab.wait_for_selector("body[data-ready='1']", timeout=WAIT)
        at_step(other_tab, s.index)
        other_tab.wait_for_function(f"document.body.dataset.values === '{s.index}'", timeout=WAIT)
        assert other_tab.evaluate("document.documentElement.scrollWidth") <= 390
        small = other_tab.eval_on_selector_all(
            "#rp-table button, .rp-nav button, #rp-load, #rp-value, #rp-save, header a",
            "bs => bs.filter(b => b.offsetParent).map(b => b.getBoundingClientRect())"
            ".filter(r => r.width < 40 || r.height < 40).length")
        assert small == 0
        other_tab.click(f"#rp-table .rp-seat[data-seat='{s.to_play}'] button.card[data-card='{code}']")
        other_tab.wait_for_selector("#rp-line[data-state='done']", timeout=WAIT)
        assert other_tab.evaluate("document.documentElement.scrollWidth") <= 390
        other_tab.screenshot(path=f"{d}/replay-phone.png", full_page=True)
    finally:
        other_tab.close()


def test_a_bad_record_shows_the_record_modules_line(page, server):
    page.goto(server.base + "/replay")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.fill("#rp-text", "Game binokel-48\nBogus 1\n")
    page.click("#rp-load")
    page.wait_for_selector("#rp-error:not([hidden])", timeout=WAIT)
    assert page.text_content("#rp-error").startswith("line 2: unknown tag 'Bogus'")
    assert page.is_hidden("#rp-view")
    # a file of two deals, uploaded: the second deal chosen; Save gives the record back
    two = format_records([DEAL, play_record("grupp-3", seed=2, soloist=1, trump=0)])
    page.set_input_files("#rp-file", files=[{"name": "two.txt", "mimeType": "text/plain",
                                              "buffer": two.encode()}])
    page.wait_for_selector("#rp-view:not([hidden])", timeout=WAIT)
    assert page.is_hidden("#rp-error") and page.text_content("#rp-meta").startswith("binokel-48")
    page.select_option("#rp-deal", "2")
    page.wait_for_function("document.getElementById('rp-meta').textContent.startsWith('grupp-3')",
                           timeout=WAIT)
    assert "#d=2&s=0&" in page.url
    with page.expect_download(timeout=WAIT) as dl:
        page.click("#rp-save")
    with open(dl.value.path(), encoding="utf-8") as f:
        assert f.read() == two
