"""The real page in headless Chromium: clicks, the numbers shown, shared URLs, bad input."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote

from analyzer.analyses.advice import advise_bid
from analyzer.analyses.analysis import analyze_hand
from analyzer.mechanics.melds import meld_report

STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"
AVERAGE = "AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D"
PICKER_ORDER = [r + s for s in "CSHD" for r in ("A", "10", "K", "Q", "J", "9")]


# the page formats with JavaScript's toFixed: half away from zero on the exact binary value
def fx(x: float, d: int) -> str:
    x = 0.0 if x == 0 else x
    return str(Decimal(x).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP))


def sg(x, d=1):
    return ("+" if x >= 0 else "") + fx(x, d)


def pci(p, lo, hi):
    return f"{fx(100 * p, 1)}% [{fx(100 * lo, 1)}–{fx(100 * hi, 1)}]"


def sci(m, lo, hi):
    return f"{sg(m)} [{sg(lo, 0)}, {sg(hi, 0)}]"


def ready(page, url):
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def cells(page, table):
    """Rows of a result table: (row dataset, {col: textContent})."""
    return page.eval_on_selector_all(
        f"#{table} tbody tr",
        "trs => trs.map(tr => [Object.assign({}, tr.dataset),"
        " Object.fromEntries([...tr.querySelectorAll('td[data-col]')].map(td => [td.dataset.col, td.textContent]))])")


def check_advice_page(page, adv: dict) -> None:
    """Every number the advice view shows equals the library's BidAdvice for the same input."""
    head = page.locator("#advice-headline")
    assert head.get_attribute("data-max-bid") == ("" if adv["max_bid"] is None else str(adv["max_bid"]))
    if adv["max_bid"] is not None:
        assert head.text_content() == f"Bid up to {adv['max_bid']}"
    assert page.locator("#advice-explanation").text_content() == adv["explanation"]
    assert page.eval_on_selector_all("#advice-notes li", "ls => ls.map(l => l.textContent)") == adv["notes"]
    assert f"samples {adv['samples']} (effective {round(adv['effective_samples'])})" in \
        page.locator("#advice-meta").text_content()
    by_bid = {r["bid"]: r for r in adv["table"]}
    shown = cells(page, "advice-table")
    covered = []
    for ds, c in shown:
        first, last = int(ds["first"]), int(ds["bid"])
        covered += [b for b in by_bid if first <= b <= last]
        r = by_bid[last]          # a run of identical rows shows its last row's numbers
        assert c["bid"] == (str(last) if first == last else f"{first}–{last}")
        assert c["p_make"] == pci(r["p_make"], r["p_make_lo"], r["p_make_hi"])
        assert c["ev_score"] == sci(r["ev_score"], r["ev_score_lo"], r["ev_score_hi"])
        assert c["ev_objective"] == sci(r["ev_objective"], r["ev_objective_lo"], r["ev_objective_hi"])
        assert c["minus_pass"] == sg(r["minus_pass"])
        assert c["p_surrender"] == f"{fx(100 * r['p_surrender'], 1)}%"
    assert covered == [r["bid"] for r in adv["table"]]
    if adv["max_bid"] is not None:
        assert [ds["bid"] for ds, _ in shown if ds.get("bid") == str(adv["max_bid"])]
        assert page.locator("#advice-table tr.rec").get_attribute("data-bid") == str(adv["max_bid"])


def test_clicked_hand_and_auction_give_the_advice_of_advise_bid_and_the_url_reproduces_it(page, server, browser):
    ready(page, server.base + "/")
    for code in AVERAGE.split():
        page.click(f"#picker .card[data-card='{code}']")
    assert page.text_content("#hand-count") == "15/15"
    assert page.input_value("#hand-text").split() == sorted(AVERAGE.split(), key=PICKER_ORDER.index)
    page.select_option("#seat", "mh")
    assert "set Seat to forehand" in page.text_content("#auction-warn")   # nobody has called yet
    page.click("#call-raise")                                   # forehand opens 150
    page.wait_for_function("document.getElementById('auction-status').textContent === 'middlehand to call'")
    assert page.text_content("#call-raise") == "+10 → 160"
    assert page.text_content("#auction-warn") == ""
    page.click("#more summary")
    page.fill("#samples", "300")
    page.fill("#seed", "5")
    page.click("#run-advise")
    page.wait_for_selector("#result-advise:not([hidden])")
    adv = advise_bid(AVERAGE, seat="middlehand", auction="150", samples=300, seed=5).to_dict()
    check_advice_page(page, adv)
    assert page.locator("#chart-advice").bounding_box()["height"] > 100

    url = page.url
    assert "seat=mh" in url and "auction=150" in url and "samples=300" in url and "seed=5" in url
    other = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        ready(other, url)                                       # the shared link, in a new tab
        other.wait_for_selector("#result-advise:not([hidden])")
        check_advice_page(other, adv)
        assert other.text_content("#advice-table") == page.text_content("#advice-table")
        assert other.text_content("#hand-count") == "15/15"
        assert other.text_content("#auction-status") == "middlehand to call"
    finally:
        other.close()


def test_picker_refuses_a_third_copy_and_keeps_the_text_box_in_sync(page, server):
    ready(page, server.base + "/")
    ace = "#picker .card[data-card='AS']"
    page.click(ace)
    page.click(ace)
    page.click(ace)
    assert "only two copies" in page.text_content("#cards-msg")
    assert page.get_attribute(ace, "data-hand") == "2"
    assert page.input_value("#hand-text") == "AS AS"
    page.click("#hand-cards .chip[data-card='AS']")            # click a held card: take it back
    assert page.get_attribute(ace, "data-hand") == "1"
    # the text box takes the CLI's card text, German names included, and drives the picker
    page.fill("#hand-text", "Herz-Ober, schellen unter 10♠")
    page.wait_for_function("document.getElementById('hand-count').textContent === '3/15'")
    assert page.get_attribute("#picker .card[data-card='QH']", "data-hand") == "1"
    assert page.get_attribute("#picker .card[data-card='AS']", "data-hand") == "0"
    page.fill("#hand-text", "AS QQ")
    page.wait_for_function("document.getElementById('cards-msg').textContent.includes('bad card token')")
    # Tapp: hand + Tapp together hold at most two copies (R1)
    page.fill("#hand-text", "AS AS")
    page.wait_for_function("document.getElementById('hand-count').textContent === '2/15'")
    page.click("#target-tapp")
    page.click(ace)
    assert "only two copies" in page.text_content("#cards-msg")
    page.click("#picker .card[data-card='9H']")
    assert page.text_content("#tapp-count") == "1/3"
    # German labels
    page.select_option("#labels", "de")
    assert page.text_content("#hand-cards .chip") == "Schippen-Ass"
    assert "labels=de" in page.url


def test_rules_selector_changes_the_deck_sizes_and_auction(page, server):
    ready(page, server.base + "/")
    page.fill("#hand-text", "AS 9S")
    page.wait_for_function("document.getElementById('hand-count').textContent === '2/15'")
    page.select_option("#rules", "grupp-3")                   # the 9 becomes the 7 (V1)
    page.wait_for_function("document.getElementById('hand-text').value === 'AS 7S'")
    assert page.text_content("#picker .card[data-card='7S']").startswith("7")
    page.wait_for_function("!document.getElementById('call-pass').disabled")   # grupp: no forced opening
    assert "rules=grupp-3" in page.url
    page.select_option("#rules", "binokel-40")                # 40 cards: no rank 5, 12 + 4
    page.wait_for_function("document.getElementById('hand-count').textContent.endsWith('/12')")
    assert page.locator("#picker .card").count() == 20
    assert page.text_content("#tapp-count") == "0/4"


def test_auction_buttons_only_build_legal_r3_sequences(page, server):
    ready(page, server.base + "/")
    assert page.is_disabled("#call-pass")                      # forehand must open
    page.click("#call-raise")
    page.wait_for_function("document.getElementById('call-raise').textContent === '+10 → 160'")
    page.click("#call-pass")
    page.wait_for_function("document.getElementById('auction-status').textContent === 'rearhand to call'")
    page.click("#call-pass")
    page.wait_for_function("document.getElementById('auction-status').textContent.startsWith('over')")
    assert page.text_content("#auction-status") == "over: forehand is soloist at 150"
    assert page.is_disabled("#call-pass") and page.is_disabled("#call-raise")
    page.click("#call-undo")
    page.wait_for_function("document.getElementById('auction-status').textContent === 'rearhand to call'")
    assert "auction=150,pass" in page.url


def test_bad_input_shows_its_message_on_the_page(page, server):
    short = ",".join(STRONG.split()[:-1])
    hand = STRONG.replace(" ", ",")
    for query, needle, where in [
        (f"hand={short}&view=advise", "hand: must have 15 cards, got 14", "error"),
        (f"hand={hand}&seat=rh&auction=150,170&view=advise", "jumps are not allowed", "error"),
        (f"hand={hand}&samples=999999&view=advise", "samples: must be at most 20,000 (this server's cap per request)", "error"),
        (f"hand={hand}&seat=mh&auction=150,160&view=advise", "it is forehand's call, not middlehand's", "error"),
        (f"hand={hand}&tapp=AS,9S,9S&view=analyze", "overlaps the hand", "error"),
        (f"hand={quote('AS,AS,AS')}&view=melds", "3 copies of A♠", "cards-msg"),   # under the text box
        (f"hand={hand}&seat=dealer", "unknown seat", "error"),
    ]:
        ready(page, f"{server.base}/?{query}")
        page.wait_for_function(f"document.getElementById({where!r}).textContent.includes({needle!r})",
                               timeout=10_000)
        assert page.is_visible(f"#{where}")
        assert "Traceback" not in page.text_content("body")
        assert page.is_hidden("#result-advise")
    assert server.get("/api/info")[0] == 200


def test_long_analysis_shows_progress_and_cancel_stops_its_worker(page, server, browser):
    ready(page, f"{server.base}/?hand={AVERAGE.replace(' ', ',')}&asamples=50000&view=analyze")
    page.wait_for_function("document.getElementById('progress-text').textContent.includes('chunks')")
    assert not page.is_hidden("#progress")
    # a second tab is served while the first one's analysis runs
    other = browser.new_page(bypass_csp=True)
    try:
        ready(other, f"{server.base}/?hand={STRONG.replace(' ', ',')}&view=melds")
        other.wait_for_selector("#result-melds:not([hidden])")
        assert other.text_content("#melds-headline") == "Best trump by meld: ♠ S (320)"
    finally:
        other.close()
    assert not page.is_hidden("#progress")                  # still computing in its worker
    page.click("#cancel")
    page.wait_for_function("document.getElementById('error').textContent === 'cancelled'")
    assert page.is_hidden("#progress")
    jobs = server.app.state.jobs
    page.wait_for_function("1", timeout=100)
    for _ in range(200):
        if all(j.is_finished for j in jobs._jobs.values()):
            break
        page.wait_for_timeout(50)
    assert all(j.is_finished for j in jobs._jobs.values())
    assert [j.state for j in jobs._jobs.values() if j.kwargs.get("samples") == 50000][-1] == "cancelled"


def test_analysis_and_melds_views_show_the_library_numbers(page, server):
    ready(page, f"{server.base}/?hand={STRONG.replace(' ', ',')}&tapp=10S,AH,9D&asamples=256&seed=3&view=analyze")
    page.wait_for_selector("#result-analyze:not([hidden])")
    res = analyze_hand(STRONG, "10S AH 9D", "forehand", 256, 3, 1).to_dict()
    rec = res["recommendation"]
    sym = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
    shown_discard = " ".join(c[:-1] + sym[c[-1]] for c in rec["discard"].split())
    assert page.text_content("#analysis-headline") == f"Discard {shown_discard}, trump ♠"
    dist = {ds["quantity"]: c for ds, c in cells(page, "analysis-distributions")}
    for r in res["distributions"]:
        assert dist[r["quantity"]]["mean"] == f"{fx(r['mean'], 1)} ± {fx((r['ci_hi'] - r['ci_lo']) / 2, 1)}"
        assert dist[r["quantity"]]["q50"] == fx(r["q50"], 0)
    bids = {int(ds["bid"]): c for ds, c in cells(page, "analysis-bids")}
    for r in res["bids"]:
        if r["bid"] in bids:
            assert bids[r["bid"]]["p_make"] == pci(r["p_make"], r["p_make_lo"], r["p_make_hi"])
    for q in ("meld", "card_points", "total", "score"):
        assert page.locator(f"#chart-hist-{q}").bounding_box()["height"] > 50

    page.click("#run-melds")
    page.wait_for_selector("#result-melds:not([hidden])")
    rep = meld_report(STRONG)
    shown = {ds["trump"]: c for ds, c in cells(page, "melds-table")}
    for m in rep["by_trump"]:
        assert shown[m["trump"]]["total"] == str(m["total"])
        assert shown[m["trump"]]["binokel"] == str(m["binokel"])
    assert page.text_content("#melds-headline") == "Best trump by meld: ♠ S (320)"
    assert "view=melds" in page.url


def test_card_play_selector_sends_play_and_switches_to_the_pimc_sample_sizes(page, server):
    # play= as --play: the selector sets the PIMC defaults (and caps) in the sample fields,
    # the URL carries it, and the analysis shown is analyze_hand(..., play=...)
    from web.params import DEFAULT_SAMPLES_PIMC, MAX_SAMPLES_PIMC

    ready(page, f"{server.base}/?hand={STRONG.replace(' ', ',')}&tapp=10S,AH,9D&seed=3")
    page.eval_on_selector("#more", "d => { d.open = true; }")   # seed= in the URL opens it
    page.select_option("#play", "pimc-defence")
    assert page.input_value("#samples") == str(DEFAULT_SAMPLES_PIMC["advise"])
    assert page.input_value("#asamples") == str(DEFAULT_SAMPLES_PIMC["analyze"])
    assert page.get_attribute("#asamples", "max") == str(MAX_SAMPLES_PIMC["analyze"])
    page.fill("#asamples", "24")
    page.click("#run-analyze")
    page.wait_for_selector("#result-analyze:not([hidden])")
    assert "play=pimc-defence" in page.url and "asamples=24" in page.url
    assert "card play pimc-defence" in page.text_content("#analysis-meta")
    res = analyze_hand(STRONG, "10S AH 9D", "forehand", 24, 3, 1, play="pimc-defence").to_dict()
    dist = {ds["quantity"]: c for ds, c in cells(page, "analysis-distributions")}
    for r in res["distributions"]:
        assert dist[r["quantity"]]["mean"] == f"{fx(r['mean'], 1)} ± {fx((r['ci_hi'] - r['ci_lo']) / 2, 1)}"
    ready(page, f"{server.base}/?hand={STRONG.replace(' ', ',')}&play=fastest")
    page.wait_for_function("document.getElementById('error').textContent.includes('play: unknown')",
                           timeout=10_000)


KREUZ = "AS AS 10S KS QS JS AC AH AD 10C KH"


def test_partners_game_shows_its_seats_partners_and_the_team_advice(page, server):
    """kreuz-48 (V1, V4): four seats by name, partners opposite, 11 cards with the 7, the
    duels auction, and the team advisor's table (advise_bid, as binokel advise --rules)."""
    from analyzer.mechanics.rules import get_rules

    ready(page, server.base + "/")
    page.select_option("#rules", "kreuz-48")
    page.wait_for_function("document.getElementById('hand-count').textContent === '0/11'")
    assert page.text_content("#picker .card[data-card='7S']").startswith("7")       # V2.1 low card
    assert page.eval_on_selector_all("#seat option", "os => os.map(o => o.textContent)") == [
        "forehand (Vorhand) · partner rearhand", "middlehand (Mittelhand) · partner dealer",
        "rearhand (Hinterhand) · partner forehand", "dealer (Geber) · partner middlehand"]
    assert page.text_content("#partners") == "Partners (V1): forehand + rearhand against middlehand + dealer"
    assert page.text_content("#tapp-count") == "0/4"
    # the card plays offered are those the game takes (resolve_play, as every request checks)
    from web.games import plays
    assert sorted(page.eval_on_selector_all("#play option:not([hidden])",
                                            "os => os.map(o => o.value)")) == \
        sorted(plays(get_rules("kreuz-48")))      # every play since issue 24's team PIMC
    page.fill("#hand-text", KREUZ)
    page.wait_for_function("document.getElementById('hand-count').textContent === '11/11'")
    page.select_option("#seat", "1")
    page.click("#call-raise")                                   # forehand opens 150 (V1)
    page.wait_for_function("document.getElementById('auction-status').textContent === 'middlehand to call'")
    assert page.text_content("#call-raise") == "+10 → 160" and page.text_content("#auction-warn") == ""
    page.click("#more summary")
    assert page.get_attribute("#score-fh", "placeholder") == "your team" and page.is_hidden("#score-rh")
    page.fill("#samples", "60")
    page.fill("#seed", "3")
    page.click("#run-advise")
    page.wait_for_selector("#result-advise:not([hidden])")
    adv = advise_bid(KREUZ, seat=1, auction="150", samples=60, seed=3, rules=get_rules("kreuz-48")).to_dict()
    head = page.locator("#advice-headline")
    assert head.get_attribute("data-max-bid") == ("" if adv["max_bid"] is None else str(adv["max_bid"]))
    assert page.text_content("#advice-partners") == (
        "You sit middlehand, team 1: middlehand (you) + dealer against forehand + rearhand.")
    by_bid = {r["bid"]: r for r in adv["table"]}
    covered = []
    for ds, c in cells(page, "advice-table"):
        first, last = int(ds["first"]), int(ds["bid"])
        covered += [b for b in by_bid if first <= b <= last]
        r = by_bid[last]
        assert c["p_make"] == pci(r["p_make"], r["p_make_lo"], r["p_make_hi"])
        assert c["ev"] == sci(r["ev"], r["ev_lo"], r["ev_hi"])
    assert covered == [r["bid"] for r in adv["table"]]
    assert "rules=kreuz-48" in page.url and "seat=1" in page.url
    page.screenshot(path="/tmp/page-kreuz-48-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path="/tmp/page-kreuz-48-phone.png", full_page=True)
    # a phone: nothing wider than the screen (the table scrolls inside its box)
    page.wait_for_function("document.documentElement.scrollWidth === 390")   # charts resize after the viewport
    page.locator("#result-advise").screenshot(path="/tmp/page-kreuz-48-phone-advice.png")


PIN = "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH"


def test_game_without_dabb_takes_four_copies_jump_bids_and_shows_its_meld_classes_and_analysis(page, server):
    """pinochle-80 (V6): 80 cards (four copies, no low card), no Dabb (V6.1), open bidding
    with jumps (V6.2), melds by the classes of V6.3, the team analysis per trump."""
    from analyzer.analyses.analysis import analyze_team_hand
    from analyzer.mechanics.melds import class_meld_report
    from analyzer.mechanics.rules import get_rules

    ready(page, server.base + "/?rules=pinochle-80")
    assert page.locator("#picker .card").count() == 20 and page.is_hidden("#target-tapp")
    ace = "#picker .card[data-card='AH']"
    for _ in range(5):
        page.click(ace)
    assert page.get_attribute(ace, "data-hand") == "4" and "only four copies" in page.text_content("#cards-msg")
    page.fill("#hand-text", PIN)
    page.wait_for_function("document.getElementById('hand-count').textContent === '20/20'")
    assert page.text_content("#partners") == "Partners (V1): first + third against second + dealer"
    page.fill("#call-bid", "600")                               # a jump over the opening 500 (V6.2)
    page.click("#call-jump")
    page.wait_for_function("document.getElementById('auction-status').textContent === 'second to call'")
    assert page.text_content("#call-raise") == "+10 → 610"
    page.fill("#call-bid", "605")                               # not a multiple of 10: refused, not added
    page.click("#call-jump")
    page.wait_for_function("document.getElementById('error').textContent.includes('not a multiple of 10')")
    assert page.text_content("#auction-calls") == "1st600"
    page.click("#run-melds")
    page.wait_for_selector("#result-melds:not([hidden])")
    rep = class_meld_report(PIN, None, get_rules("pinochle-80"))
    assert {ds["trump"]: c["total"] for ds, c in cells(page, "melds-table")} == \
        {r["trump"]: str(r["total"]) for r in rep["by_trump"]}
    page.click("#more summary")
    page.fill("#asamples", "40")
    page.click("#run-analyze")
    page.wait_for_selector("#result-analyze:not([hidden])")
    res = analyze_team_hand(PIN, get_rules("pinochle-80"), samples=40).to_dict()
    shown = {ds["trump"]: c for ds, c in cells(page, "team-trumps")}
    for r in res["trumps"]:
        t = r["team_total"]
        assert shown["CSHD"[r["trump"]]]["team_total"] == f"{fx(t['mean'], 1)} [{fx(t['lo'], 1)}, {fx(t['hi'], 1)}]"
    assert page.is_hidden("#analysis-solo")
    page.screenshot(path="/tmp/page-pinochle-80-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.scrollWidth === 390")   # charts resize after the viewport
    page.locator("#result-analyze").screenshot(path="/tmp/page-pinochle-80-phone-analysis.png")
