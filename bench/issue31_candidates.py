#!/usr/bin/env python3
"""Issue 31: paraphrase candidates ranked by the metric plugins.

  1. throughput: TEXTS (1000) distinct texts, 5 candidates each from the offline provider, scored by
     the semantic metric alone ([evaluate] metrics = ["semantic"], the MiniLM model):
       candidates  one POST /paraphrase {text, candidates: 5, skip_cache: true} per text (the host asks
                   the provider once for five rewrites, scores all five in one evaluation, ranks them);
       baseline    what a client did before: five POST /paraphrase {text, skip_cache: true} calls and one
                   POST /evaluate/batch {originals, paraphrases, include_semantic: true} of the five pairs,
                   per text.
     Both one request at a time against the same server, alternated round by round (ROUNDS, 3), so that
     a change in machine load hits both. Printed: texts per second of each round, the medians and the
     ratio candidates / baseline.
  2. quality: every sentence of bench/data/offline-holdout.txt, bench/data/offline-unseen-2.txt (issue 44's
     set, written before its rules) and bench/data/offline-unseen-3.txt (written before the second round of
     issue 44's rules and never looked at sentence by sentence), bench/data/offline-unseen-4.txt (written before the
     fourth round's rules, aggregate counts only), and the two other sets, with the offline
     default alone, `candidates: 8` (the default maximum) and `min_scores: {semantic_similarity: 0.85}`:
     how many texts get at least 3 distinct candidates over 0.85, and the mean pairwise diversity of the
     candidates that passed (the host's diversity, 1 - Jaccard of the lower-cased words and word pairs, between two
     candidates; averaged per text over its pairs, then over the texts with at least two). Also the share
     of texts the default single paraphrase leaves unchanged (the response's `unchanged`), issue 31's
     target being at most 10 %.

Environment: PARTS (quality,throughput), TEXTS (1000), ROUNDS (3), PARLANCE_BIN (default target/release/parlance, built unless
BENCH_NO_BUILD=1), PARLANCE_EMBEDDINGS_MODEL_DIR (default models/all-MiniLM-L6-v2), OFFLINE_COMPONENT (a
built offline plugin, such as target/wasm32-wasip2/plugin/parlance_plugin_offline.wasm, bound as
`offline-under-test` and asked instead of the binary's bundled `offline`: the plugin's rules measured without
rebuilding the host).
"""

import itertools
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TEXTS = int(os.environ.get("TEXTS", "1000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
COUNT = 5
COMPONENT = os.environ.get("OFFLINE_COMPONENT")
PROVIDER = "offline-under-test" if COMPONENT else "offline"
SETS = ["offline-holdout", "offline-unseen-2", "offline-unseen-3", "offline-unseen-4", "offline-unseen", "offline-eval"]
PARTS = os.environ.get("PARTS", "quality,throughput").split(",")


def model_dir():
    return os.environ.get("PARLANCE_EMBEDDINGS_MODEL_DIR") or os.path.join(common.REPO, "models", "all-MiniLM-L6-v2")


def words(text):
    ws = [w.lower() for w in re.split(r"[^\w]|_", text) if w]
    return set(ws) | {f"{a} {b}" for a, b in zip(ws, ws[1:])}


def diversity(a, b):
    a, b = words(a), words(b)
    union = a | b
    return 0.0 if not union else 1.0 - len(a & b) / len(union)


def sentences(name):
    with open(os.path.join(common.BENCH, "data", f"{name}.txt")) as f:
        return [line.strip() for line in f if line.strip()]


def bench_texts():
    """TEXTS distinct sentences: the three sets, then numbered variants of them."""
    pool = [s for name in SETS if name not in ("offline-unseen-3", "offline-unseen-4") for s in sentences(name)]
    out = []
    for i in itertools.count():
        for s in pool:
            if len(out) == TEXTS:
                return out
            out.append(s if i == 0 else f"{s[:-1]} on day {i}{s[-1]}")


def with_candidates(port, texts):
    started = time.perf_counter()
    for text in texts:
        answer = common.request_json(port, "POST", "/paraphrase", {"text": text, "provider": PROVIDER, "candidates": COUNT, "skip_cache": True})
        assert "semantic_similarity" in answer["candidates"][0]["scores"] if answer["candidates"] else True, answer
    return len(texts) / (time.perf_counter() - started)


def baseline(port, texts):
    started = time.perf_counter()
    for text in texts:
        paraphrases = [
            common.request_json(port, "POST", "/paraphrase", {"text": text, "provider": PROVIDER, "skip_cache": True})["paraphrase"]
            for _ in range(COUNT)
        ]
        body = {"originals": [text] * COUNT, "paraphrases": paraphrases, "include_semantic": True}
        result = common.request_json(port, "POST", "/evaluate/batch", body)
        assert "semantic_similarity" in result["results"][0]["evaluation"], result
    return len(texts) / (time.perf_counter() - started)


def throughput(port):
    texts = bench_texts()
    rates = {"candidates": [], "baseline": []}
    for r in range(ROUNDS):
        order = [("candidates", with_candidates), ("baseline", baseline)]
        if r % 2:
            order.reverse()
        for name, run in order:
            rates[name].append(run(port, texts))
            common.log(f"round {r + 1}: {name} {rates[name][-1]:.1f} texts/s")
    c, b = common.median(rates["candidates"]), common.median(rates["baseline"])
    print(f"\n1. {len(texts)} texts, {COUNT} candidates each, offline provider, semantic metric, one request at a time")
    for name in rates:
        print(f"   {name:<10} texts/s per round: {', '.join(f'{x:.1f}' for x in rates[name])}; median {common.median(rates[name]):.1f}")
    print(f"   ratio candidates / baseline: {c / b:.2f}")


def quality(port):
    print("\n2. the offline default alone, candidates 8, min_scores semantic_similarity 0.85")
    for name in SETS:
        texts = sentences(name)
        rich, diversities, unchanged, kept = 0, [], 0, []
        for text in texts:
            single = common.request_json(port, "POST", "/paraphrase", {"text": text, "provider": PROVIDER})
            unchanged += bool(single["unchanged"])
            body = {"text": text, "provider": PROVIDER, "candidates": 8, "min_scores": {"semantic_similarity": 0.85}}
            answer = common.request_json(port, "POST", "/paraphrase", body)
            passed = [c["text"] for c in answer["candidates"] if c["passed"]]
            kept.append(len(passed))
            rich += len(passed) >= 3
            pairs = list(itertools.combinations(passed, 2))
            if pairs:
                diversities.append(statistics.mean(diversity(a, b) for a, b in pairs))
        mean = statistics.mean(diversities) if diversities else float("nan")
        print(
            f"   {name:<16} {len(texts)} texts: {rich} ({rich / len(texts):.0%}) with >= 3 candidates over 0.85; "
            f"{statistics.mean(kept):.2f} over 0.85 per text; "
            f"mean pairwise diversity {mean:.3f} (over {len(diversities)} texts with >= 2); "
            f"default unchanged {unchanged} ({unchanged / len(texts):.1%}, target <= 10%)"
        )


def main():
    binary = os.environ.get("PARLANCE_BIN") or common.build()
    config = f'[embeddings]\nmodel_dir = "{model_dir()}"\n\n[evaluate]\nmetrics = ["semantic"]\n'
    if COMPONENT:
        config += f'\n[[plugin]]\nid = "{PROVIDER}"\nkind = "provider"\ncomponent = "{os.path.abspath(COMPONENT)}"\n'
    print(common.machine_line())
    server = common.Server(config_text=config, binary=binary)
    try:
        if "quality" in PARTS:
            quality(server.api_port)
        if "throughput" in PARTS:
            throughput(server.api_port)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
