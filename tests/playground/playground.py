"""The playground page (/playground) clicked through in headless Chromium with Playwright (pinned in
scripts/requirements-test.txt; the browser is Debian's chromium, never one Playwright downloads), run by
tests/playground.rs against the real binary in front of local upstream fakes. Each feature is checked
against what the API itself answers to the same request, so the page must show what the server says,
whether or not the server returns paraphrase candidates. Every check raises on failure; the last line
printed is a JSON summary for the Rust side.

Usage: playground.py KEYED_URL KEY OPEN_URL SCREENSHOT
  KEYED_URL  a server with API keys required, KEY one of its keys
  OPEN_URL   a server without API keys, with an embedding backend (the keyed one has none)
  SCREENSHOT the whole page at the end; the manual's pictures of the candidates, chat and usage panes
             (playground-candidates.png, playground-chat.png, playground-usage.png) are written beside it
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from playwright.sync_api import expect, sync_playwright

keyed_url, key, open_url, screenshot = sys.argv[1:5]
summary = {}
TIMEOUT_MS = 60_000
expect.set_options(timeout=TIMEOUT_MS)


def api(base, method, path, body=None, key=None):
    """The API's own answer to a request: (status, JSON body)."""
    request = urllib.request.Request(base + path, method=method)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def shown_scores(scores):
    """The scores a `dl.scores` shows: each one's printed value, and each bar's width."""
    values = {
        dt.get_attribute("data-score"): float(dd.inner_text())
        for dt, dd in zip(scores.locator("dt").all(), scores.locator("dd.value").all())
    }
    widths = scores.locator(".bar > span").evaluate_all("spans => spans.map(s => s.style.width)")
    return {"scores": values, "bars": widths}


def shown_candidates(container):
    """The candidates a result column shows: each one's provider line, text and scores."""
    return [
        {"meta": item.locator(".meta").inner_text(), "text": item.locator(".text").inner_text(),
         **shown_scores(item.locator("dl.scores"))}
        for item in container.locator("li.candidate").all()
    ]


def expected_candidates(base, body, semantic=True):
    """What the page must show for `body`: the answer's candidates, or its one paraphrase scored by /evaluate."""
    status, answer = api(base, "POST", "/paraphrase", body, key)
    assert status == 200, (status, answer)
    if "candidates" in answer:
        return answer, answer["candidates"]
    status, scored = api(base, "POST", "/evaluate", {"original": answer["original"], "paraphrase": answer["paraphrase"],
                                                     "include_semantic": semantic}, key)
    assert status == 200, (status, scored)
    return answer, [{"text": answer["paraphrase"], "provider": answer["provider"], "model": answer["model"],
                     "scores": scored["evaluation"]}]


def same_candidates(shown, expected):
    assert len(shown) == len(expected), (shown, expected)
    for rank, (page, api_answer) in enumerate(zip(shown, expected), start=1):
        assert page["text"] == api_answer["text"], (page, api_answer)
        assert page["meta"].startswith(f"#{rank}") and api_answer["provider"] in page["meta"], (page, api_answer)
        numbers = {k: v for k, v in api_answer["scores"].items() if isinstance(v, (int, float))}
        assert numbers, api_answer
        assert set(page["scores"]) == set(numbers), (page, api_answer)
        for name, value in numbers.items():
            assert abs(page["scores"][name] - value) <= 0.0005 + 1e-9, (name, page, api_answer)
        # Each bar is as long as its score: sacreBLEU's on 0..100, the others on 0..1.
        for width, (name, value) in zip(page["bars"], numbers.items()):
            full = 100 if name in ("bleu", "chrf", "ter") else 1
            assert abs(float(width.rstrip("%")) - max(0.0, min(1.0, value / full)) * 100) < 0.01, (name, width, value)


def days_ago(days):
    """The date (UTC) `days` days before today, as the usage page's period picker writes `from`."""
    return (datetime.now(timezone.utc).date() - timedelta(days=days)).isoformat()


def usage_query(request):
    """The query of the page's `/usage` request, which must be the period picked, by day and model."""
    return urllib.parse.urlsplit(request.url).query


def expected_chart(report, dimension, spend):
    """A chart as the page must draw it from `report`: per day or model, its calls and its spend
    (exact, summed over the day's or model's groups) or tokens, in order: the days by date, the models
    by what they spent or used, the most first."""
    sums = {}
    for group in report["groups"]:
        entry = sums.setdefault(group["group"][dimension], {"calls": 0, "tokens": 0, "cost": None})
        entry["calls"] += group["calls"]
        entry["tokens"] += group["input_tokens"] + group["output_tokens"]
        if group["cost"] is not None:
            entry["cost"] = (entry["cost"] or Decimal(0)) + Decimal(group["cost"])
    amount = {name: (e["cost"] or Decimal(0)) if spend else e["tokens"] for name, e in sums.items()}
    order = sorted(sums) if dimension == "day" else sorted(sums, key=lambda name: (-amount[name], name))
    largest = max(amount.values())
    return [{"name": name, "label": name or "(no model)",
             "value": (("no price" if sums[name]["cost"] is None else format(sums[name]["cost"].normalize(), "f"))
                       if spend else f"{sums[name]['tokens']:,}"),
             "calls": f"{sums[name]['calls']:,}",
             "width": float(amount[name] / largest * 100) if largest else 0.0}
            for name in order]


def shown_chart(chart):
    """The rows a usage chart shows: each one's name, label, value, calls and bar width."""
    rows = chart.locator("tbody tr").evaluate_all("""rows => rows.map(r => ({
        name: r.dataset.name, label: r.querySelector('th').textContent,
        value: r.querySelector('td.value').textContent, calls: r.querySelector('td.calls').textContent,
        width: parseFloat(r.querySelector('.bar > span').style.width)}))""")
    return rows


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium",
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-quic", "--no-first-run",
              # Every other host name resolves to nothing, so a request that tries to leave the
              # server fails here rather than reaching out; the request log below records it either way.
              "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests, problems = [], []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)

    # The page and its policy; with keys required it asks for a key, and says why until it has one.
    response = page.goto(keyed_url + "/playground")
    assert response.status == 200, response.status
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "unsafe" not in policy, policy
    expect(page.locator("#key-field")).to_be_visible()
    expect(page.locator("#global-error")).to_contain_text("401 missing_api_key")
    expect(page.locator("#usage-result")).to_have_text("Type an API key above to see its usage.")
    page.click("#paraphrase-go")
    expect(page.locator("#paraphrase-error")).to_contain_text("401 missing_api_key")
    page.fill("#api-key", "not-a-key")
    page.dispatch_event("#api-key", "change")
    expect(page.locator("#global-error")).to_contain_text("401 invalid_api_key")
    # The usage pane says what the API answered the key it was given.
    expect(page.locator("#usage-error")).to_contain_text("401 invalid_api_key")
    summary["usage_error"] = page.locator("#usage-error").inner_text()
    page.fill("#api-key", key)
    with page.expect_request(lambda r: "/usage?" in r.url) as asked:
        page.dispatch_event("#api-key", "change")
    expect(page.locator("#global-error")).to_be_hidden()
    # With the key, its usage of the last 30 days (the default): none yet, and the page says so.
    query = usage_query(asked.value)
    assert urllib.parse.parse_qs(query) == {"from": [days_ago(29)], "group_by": ["day,model"]}, query
    status, report = api(keyed_url, "GET", f"/usage?{query}", key=key)
    assert status == 200 and report["total"]["calls"] == 0, (status, report)
    expect(page.locator("#usage-result .empty")).to_have_text("No plugin calls in this period.")
    expect(page.locator("#usage-error")).to_be_hidden()
    summary["usage_empty_shown"] = True
    status, providers = api(keyed_url, "GET", "/providers", key=key)
    available = sorted(p["id"] for p in providers["providers"] if p["available"])
    offered = page.locator("#providers input:not([disabled])").evaluate_all("boxes => boxes.map(b => b.value)")
    assert sorted(offered) == available, (offered, providers)
    unavailable = page.locator("#providers input[disabled]").count()
    assert unavailable == len(providers["providers"]) - len(available), providers
    summary["providers"] = available
    # Semantic similarity is ticked by default only where the server computes it: where /providers
    # offers the score, which it does with an embedding backend alone.
    semantic = "semantic_similarity" in providers["scores"]
    expect(page.locator("#semantic")).to_be_checked(checked=semantic)
    summary["semantic_ticked"] = {"keyed": page.locator("#semantic").is_checked()}

    # Paraphrase: one candidate from the offline provider, scored by /evaluate.
    text = "The committee postponed the meeting because several members could not attend."
    page.fill("#text", text)
    for box in page.locator("#providers input:not([disabled])").all():
        box.set_checked(box.get_attribute("value") == "offline")
    page.click("#paraphrase-go")
    result = page.locator("#paraphrase-result")
    expect(result.locator("li.candidate")).to_have_count(1)
    _, expected = expected_candidates(keyed_url, {"text": text, "provider": "offline"})
    same_candidates(shown_candidates(result), expected)
    expect(page.locator("#paraphrase-error")).to_be_hidden()

    # Several candidates, ranked: the page shows what the API answers to the same request.
    page.fill("#count", "3")
    page.fill("#rank-by", "diversity")
    page.click("#paraphrase-go")
    answer, expected = expected_candidates(keyed_url, {"text": text, "provider": "offline", "candidates": 3,
                                                       "rank_by": "diversity"})
    expect(result.locator("li.candidate")).to_have_count(len(expected))
    expect(result.locator(".summary")).to_contain_text(f"{len(expected)} candidate")
    same_candidates(shown_candidates(result), expected)
    summary["candidates_shown"] = len(expected)
    summary["server_returns_candidates"] = "candidates" in answer
    shots = os.path.dirname(screenshot)
    page.locator("#paraphrase-pane").screenshot(path=os.path.join(shots, "playground-candidates.png"))

    # Fewer candidates than asked for: the answer's warning says why, on a line of its own.
    short_text = "I am here."
    page.fill("#text", short_text)
    page.fill("#count", "5")
    page.click("#paraphrase-go")
    short, expected = expected_candidates(keyed_url, {"text": short_text, "provider": "offline", "candidates": 5,
                                                      "rank_by": "diversity"})
    assert len(expected) < 5 and short.get("warnings"), short
    expect(result.locator("p.warning")).to_have_text(short["warnings"])
    expect(result.locator(".summary")).to_contain_text(f"{len(expected)} candidate")
    expect(result.locator(".summary")).to_contain_text(f"of {short['requested']} asked for")
    summary["shortfall_warning"] = result.locator("p.warning").first.inner_text()
    page.fill("#text", text)
    page.fill("#count", "3")

    # An API error is shown, named by its code, and the earlier result is gone.
    page.fill("#text", "   ")
    page.click("#paraphrase-go")
    expect(page.locator("#paraphrase-error")).to_contain_text("422")
    status, refused = api(keyed_url, "POST", "/paraphrase", {"text": "   ", "provider": "offline", "candidates": 3,
                                                              "rank_by": "diversity"}, key)
    assert status == 422, refused
    expect(page.locator("#paraphrase-error")).to_contain_text(refused["error"]["code"])
    expect(page.locator("#paraphrase-error")).to_contain_text(refused["error"]["message"])
    expect(result.locator("li.candidate")).to_have_count(0)
    page.fill("#text", text)
    page.fill("#count", "1")
    page.fill("#rank-by", "")

    # Side by side: the offline provider and the OpenAI-compatible one, each in its column.
    other = next(p for p in available if p != "offline")
    page.select_option("#compare-a", "offline")
    page.select_option("#compare-b", other)
    page.click("#compare-go")
    for column, provider in (("#compare-left", "offline"), ("#compare-right", other)):
        expect(page.locator(f"{column} li.candidate")).to_have_count(1)
        expect(page.locator(f"{column} h3")).to_have_text(provider)
        _, expected = expected_candidates(keyed_url, {"text": text, "provider": provider})
        same_candidates(shown_candidates(page.locator(column)), expected)
    summary["compared"] = ["offline", other]

    # Evaluate a pair: every score as a bar, as /evaluate computes it.
    page.fill("#eval-original", "The cat sat on the mat.")
    page.fill("#eval-paraphrase", "A cat was sitting on the rug.")
    page.click("#evaluate-go")
    scores = page.locator("#evaluate-result dl.scores")
    expect(scores).to_be_visible()
    _, scored = api(keyed_url, "POST", "/evaluate", {"original": "The cat sat on the mat.",
                                                     "paraphrase": "A cat was sitting on the rug.",
                                                     "include_semantic": True}, key)
    same_candidates([{"meta": "#1 pair", "text": "", **shown_scores(scores)}],
                    [{"text": "", "provider": "pair", "scores": scored["evaluation"]}])
    summary["evaluated_scores"] = sorted(k for k, v in scored["evaluation"].items() if isinstance(v, (int, float)))

    # Chat, streamed: every version of the reply the page showed, recorded as it changes.
    page.evaluate("""() => {
        window.replyVersions = [];
        new MutationObserver(() => {
            const body = document.querySelector('#chat-log li.character:last-child .body');
            const text = body ? body.textContent : '';
            if (text && window.replyVersions.at(-1) !== text) window.replyVersions.push(text);
        }).observe(document.getElementById('chat-log'), {subtree: true, childList: true, characterData: true});
    }""")
    page.fill("#chat-user", "browser-user")
    page.fill("#chat-message", "Hello there!")
    page.click("#chat-go")
    reply = page.locator("#chat-log li.character").last
    expect(reply.locator(".note")).to_contain_text("stored as entries 0, 1")
    expect(reply.locator(".body")).to_have_text("word0 word1 word2 word3 word4 ")
    versions = page.evaluate("window.replyVersions")
    # Written as it arrived: each delta showed on its own, each version the next one's beginning.
    assert versions[0] == "word0 " and versions[-1] == "word0 word1 word2 word3 word4 ", versions
    assert len(versions) == 5 and all(b.startswith(a) for a, b in zip(versions, versions[1:])), versions
    expect(page.locator("#chat-error")).to_be_hidden()
    summary["chat_versions"] = len(versions)
    page.locator("#chat-pane").screenshot(path=os.path.join(shots, "playground-chat.png"))

    # A stream that fails after its first deltas: the error is shown and the partial reply marked.
    page.fill("#chat-message", "Please DIE now")
    page.click("#chat-go")
    expect(page.locator("#chat-error")).to_contain_text("upstream")
    cut = page.locator("#chat-log li.character").last
    expect(cut).to_have_class("character cut")
    expect(cut.locator(".note")).to_contain_text("not stored")
    summary["chat_error"] = page.locator("#chat-error").inner_text()

    # A message the service refuses comes back before any event, as a JSON 422.
    page.fill("#chat-user", "a/b")
    page.fill("#chat-message", "Hello")
    page.click("#chat-go")
    expect(page.locator("#chat-error")).to_contain_text("422")
    page.fill("#chat-user", "browser-user")

    # Usage: the calls above as the ledger holds them, per day and per model, for the period picked,
    # against what /usage answers the same key for the same request.
    usage = page.locator("#usage-result")
    with page.expect_request(lambda r: "/usage?" in r.url) as asked:
        page.select_option("#usage-days", "7")
    query = usage_query(asked.value)
    assert urllib.parse.parse_qs(query) == {"from": [days_ago(6)], "group_by": ["day,model"]}, query
    status, report = api(keyed_url, "GET", f"/usage?{query}", key=key)
    assert status == 200, (status, report)
    total = report["total"]
    assert total["calls"] > 0, report
    expect(usage.locator('tr[data-total="calls"] td')).to_have_text(f"{total['calls']:,}")
    expect(page.locator("#usage-error")).to_be_hidden()
    expect(usage.locator(".summary")).to_have_text(
        f"{report['from'][:16].replace('T', ' ')} to {report['to'][:16].replace('T', ' ')} UTC")
    spend = total["cost"] is not None and Decimal(total["cost"]) > 0
    measure = "spend" if spend else "tokens"
    expect(usage).to_have_attribute("data-measure", measure)
    title = f"Spend ({report['currency']})" if spend else "Tokens"
    if not spend:
        # Nothing cost anything (the provider has no price, the offline calls are free): tokens, said so.
        expect(usage.locator(".note")).to_contain_text("the charts show tokens (in + out) instead of spend")
    charts = {}
    for dimension in ("day", "model"):
        chart = usage.locator(f'table[data-chart="{dimension}"]')
        expect(chart.locator("caption")).to_have_text(f"{title} per {dimension}")
        shown, expected = shown_chart(chart), expected_chart(report, dimension, spend)
        assert [{k: v for k, v in row.items() if k != "width"} for row in shown] == \
            [{k: v for k, v in row.items() if k != "width"} for row in expected], (dimension, shown, expected)
        for page_row, api_row in zip(shown, expected):
            assert abs(page_row["width"] - api_row["width"]) < 0.01, (dimension, page_row, api_row)
        charts[dimension] = [row["name"] for row in shown]
    totals = {row.get_attribute("data-total"): row.locator("td").inner_text()
              for row in usage.locator("table.totals tr").all()}
    cost = "no priced calls" if total["cost"] is None else f"{total['cost']} {report['currency']}"
    assert totals == {"calls": f"{total['calls']:,}", "failed_calls": f"{total['failed_calls']:,}",
                      "input_tokens": f"{total['input_tokens']:,}", "output_tokens": f"{total['output_tokens']:,}",
                      "cost": cost, "unpriced_calls": f"{total['unpriced_calls']:,}",
                      "unreported_calls": f"{total['unreported_calls']:,}"}, (totals, total)
    summary["usage_from"] = report["from"]
    summary["usage_measure"] = measure
    summary["usage_days"] = charts["day"]
    summary["usage_models"] = charts["model"]
    summary["usage_calls"] = int(totals["calls"].replace(",", ""))
    summary["usage_tokens"] = [int(totals[k].replace(",", "")) for k in ("input_tokens", "output_tokens")]
    page.locator("#usage-pane").screenshot(path=os.path.join(shots, "playground-usage.png"))

    page.screenshot(path=screenshot, full_page=True)

    # Without keys: no key field, and the page works as it is.
    plain = context.new_page()
    plain.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    plain.goto(open_url + "/playground")
    expect(plain.locator("#providers input:checked")).not_to_have_count(0)
    expect(plain.locator("#key-field")).to_be_hidden()
    _, open_providers = api(open_url, "GET", "/providers")
    assert "semantic_similarity" in open_providers["scores"], open_providers
    expect(plain.locator("#semantic")).to_be_checked()
    summary["semantic_ticked"]["open"] = plain.locator("#semantic").is_checked()
    plain.click("#paraphrase-go")
    expect(plain.locator("#paraphrase-result li.candidate")).to_have_count(1)
    expect(plain.locator("#paraphrase-error")).to_be_hidden()
    # Ticked, the semantic score is asked for, and the server computes it.
    expect(plain.locator('#paraphrase-result dt[data-score="semantic_similarity"]')).to_have_count(1)
    # Without keys the usage is the client's own (no `current-user`: the default client's), the call above in it.
    with plain.expect_request(lambda r: "/usage?" in r.url) as asked:
        plain.click("#usage-go")
    status, open_report = api(open_url, "GET", f"/usage?{usage_query(asked.value)}")
    assert status == 200 and open_report["total"]["calls"] > 0, (status, open_report)
    expect(plain.locator('#usage-result tr[data-total="calls"] td')).to_have_text(f"{open_report['total']['calls']:,}")
    expect(plain.locator("#usage-error")).to_be_hidden()
    summary["usage_open_calls"] = open_report["total"]["calls"]

    browser.close()

assert not problems, problems
servers = {urllib.parse.urlsplit(u).netloc for u in (keyed_url, open_url)}
outside = sorted({u for u in requests if urllib.parse.urlsplit(u).netloc not in servers})
assert not outside, f"requests outside the servers: {outside}"
summary["requests"] = len(requests)
print(json.dumps(summary))
