"""The table for two in headless Chromium (issue 26, V7): a whole deal played by clicking,
a hint asked once, the final score checked against the library's replay of the same moves,
the page at desktop size and at 390 px (no horizontal scroll, tap targets of 40 px)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_deal import StockDeal
from web.stock_table import action_of, parse_before

WAIT = 60_000          # ms: the machine is shared, the first request compiles kernels


def _moves_to_meld(seed):
    """The tokens of a deal played by the heuristic for both seats up to forehand's first
    meld decision (V7.3)."""
    import random

    from analyzer.mechanics import stock_play as sp
    from analyzer.search.stock_policies import Heuristic
    from web.stock_table import token

    game = get_game("binokel-2")
    deal, h, rng, moves = StockDeal.from_seed(game, seed), Heuristic(game), random.Random(seed), []
    while not (deal.st[sp.TO_MELD] == 0 and deal.legal_melds()):
        a = h(deal, rng)
        deal.apply(a)
        moves.append(token(a))
    return ".".join(moves)


def ready(page):
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)


def test_a_whole_deal_clicked_on_the_page_scores_as_the_library_replays_it(page, server, tmp_path):
    """V7.2-V7.4: every click is a legal action (illegal cards are disabled), the moves in
    the address replay to the same deal points the page shows at the end."""
    page.set_default_timeout(WAIT)
    page.goto(server.base + "/table?seed=11&seat=forehand&policy=heuristic")
    ready(page)
    assert page.locator("#stock").text_content() == "24"
    assert page.locator("#hand .card").count() == 12
    hinted = False
    for _ in range(80):
        ready(page)
        if page.locator("#result").is_visible():
            break
        if not hinted and page.locator("#hand .card[data-token]").count():
            page.fill("#worlds", "2")
            page.click("#hint-btn")
            page.wait_for_selector("#hint:not([hidden])", timeout=WAIT)
            ready(page)
            # one row per distinct legal card (two identical copies are one action)
            rows = page.eval_on_selector_all("#hint-table tbody tr", "t => t.map(r => r.dataset.token)")
            cards = page.eval_on_selector_all("#hand .card[data-token]", "t => t.map(c => c.dataset.token)")
            assert sorted(rows) == sorted(set(cards))
            assert "PIMC over 2 worlds" in page.text_content("#hint-method")
            assert set(page.eval_on_selector_all("#hint-table td[data-col=n]", "t => t.map(x => x.textContent)")) == {"2"}
            assert page.locator("#hint-table tr.best").count() >= 1
            page.screenshot(path=str(tmp_path / "table2-desktop-hint.png"), full_page=True)
            hinted = True
        # a legal card is enabled, every other card disabled (V7.4 duties after the stock)
        disabled = page.locator("#hand .card:disabled").count()
        legal = page.locator("#hand .card[data-token]").count()
        assert disabled + legal == page.locator("#hand .card").count()
        meld = page.locator("#actions button[data-kind=meld]")
        if meld.count():
            meld.first.click()
        elif legal:
            page.locator("#hand .card[data-token]").first.click()
        else:
            page.locator("#actions button").first.click()
    else:
        raise AssertionError("the deal did not end in 80 clicks")
    assert hinted
    q = parse_qs(urlparse(page.url).query)
    game = get_game(q["rules"][0])
    deal = StockDeal.from_seed(game, int(q["seed"][0]), parse_before(q.get("before", [""])[0]))
    for tok in q["moves"][0].split("."):
        deal.apply(action_of(tok))
    assert deal.over()
    pts = [deal.points(0), deal.points(1)]
    assert page.get_attribute("#result", "data-points") == f"{pts[0]},{pts[1]}"
    for s in (0, 1):
        assert page.get_attribute(f"#scores tr[data-seat='{s}']", "data-deal") == str(pts[s])
    assert str(pts[0]) in page.text_content("#result") and str(pts[1]) in page.text_content("#result")
    page.screenshot(path=str(tmp_path / "table2-desktop-end.png"), full_page=True)
    # the address restores the table: a reload shows the same end
    page.reload()
    ready(page)
    assert page.get_attribute("#result", "data-points") == f"{pts[0]},{pts[1]}"
    # a damaged address: the server's one line, shown on the page (V7.2-V7.5)
    page.goto(server.base + "/table?seed=11&moves=p1.zz")
    ready(page)
    assert "moves[1]" in page.text_content("#error") and page.locator("#error").is_visible()


def test_the_table_fits_a_phone(browser, server, tmp_path):
    """390 px wide: no horizontal scroll, every visible button at least 40 px each way."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(WAIT)
    small_js = ("els => els.filter(e => e.offsetParent !== null).map(e => [e.id || e.textContent.trim(), "
                "e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
                ".filter(([n, w, h]) => w < 40 || h < 40)")
    try:
        pg.goto(server.base + "/table?seed=4&seat=dealer")
        ready(pg)
        assert pg.locator("#hand .card").count() == 12
        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert pg.eval_on_selector_all("a, button, select, input", small_js) == []
        pg.screenshot(path=str(tmp_path / "table2-phone.png"), full_page=True)
        # a meld decision (V7.3) with the hint open: the buttons and the table still fit
        moves = _moves_to_meld(5)
        pg.goto(server.base + f"/table?seed=5&seat=forehand&moves={moves}")
        ready(pg)
        assert pg.locator("#actions button[data-kind=meld]").count() >= 1
        pg.fill("#worlds", "2")
        pg.click("#hint-btn")
        pg.wait_for_selector("#hint:not([hidden])", timeout=WAIT)
        ready(pg)
        assert pg.locator("#hint-table tbody tr").count() == pg.locator("#actions button").count()
        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert pg.eval_on_selector_all("a, button, select, input", small_js) == []
        pg.screenshot(path=str(tmp_path / "table2-phone-meld-hint.png"), full_page=True)
    finally:
        ctx.close()
    assert errors == []
