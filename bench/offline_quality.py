#!/usr/bin/env python3
"""Issue 20: how well the bundled offline provider paraphrases everyday English, against the offline
plugin of an earlier commit (the baseline, main's d11d110 unless BASELINE_REV says otherwise), in the
same run and through the same server.

For each sentence set (bench/data/offline-eval.txt, the set the rules were tuned on;
bench/data/offline-holdout.txt, held out until the session of 2026-11-26, which then tuned on it
too; and bench/data/offline-unseen.txt, written that session before its tuning and never looked
at since, sentence by sentence; and bench/data/offline-unseen-2.txt, written for issue 44 before any of
its rule changes and never tuned on):

  1. every sentence is paraphrased by `POST /paraphrase` (skip_cache) with the current build's
     `offline` provider and with the baseline component bound as `offline-baseline`, alternating
     the two round by round (ROUNDS, 3) so that a change in machine load hits both; paraphrases per
     second is the median round's sentences divided by its wall time, one request at a time;
  2. the pairs (sentence, paraphrase) are scored by `POST /evaluate/batch` with include_semantic:
     the project's MiniLM semantic similarity, word_overlap and overall_score;
  3. it prints the unchanged share (the response's `unchanged` flag), mean and minimum semantic
     similarity, mean word_overlap (lower is more lexical change), mean overall score, the share of
     numbers and capitalised words inside a sentence (names) kept, and paraphrases per second, for
     both, with the ratio current / baseline, and whether issue 20's targets are met (unchanged at
     most 10%, mean similarity at least 0.85, none below 0.7).

The baseline component is built from `git archive BASELINE_REV` into target/bench-offline-baseline
(`cargo build -p parlance-plugin-offline --target wasm32-wasip2 --profile plugin`), or taken from
BASELINE_COMPONENT. The embedding model must be installed (scripts/fetch-model.sh; or
PARLANCE_EMBEDDINGS_MODEL_DIR). The binary is target/release/parlance (built unless BENCH_NO_BUILD=1;
PARLANCE_BIN picks another, such as target/debug/parlance). Set SHOW=1 to print every paraphrase.
"""

import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
BASELINE_REV = os.environ.get("BASELINE_REV", "d11d110")
SETS = {
    "eval": os.path.join(common.BENCH, "data", "offline-eval.txt"),
    "holdout": os.path.join(common.BENCH, "data", "offline-holdout.txt"),
    "unseen": os.path.join(common.BENCH, "data", "offline-unseen.txt"),
    "unseen-2": os.path.join(common.BENCH, "data", "offline-unseen-2.txt"),
}
TARGETS = {"unchanged": 0.10, "mean": 0.85, "min": 0.70}


def baseline_component():
    given = os.environ.get("BASELINE_COMPONENT")
    if given:
        return os.path.abspath(given)
    root = os.path.join(common.TARGET_DIR, "bench-offline-baseline")
    src = os.path.join(root, "src-" + BASELINE_REV)
    if not os.path.isdir(src):
        os.makedirs(src)
        common.log(f"git archive {BASELINE_REV} -> {src}")
        archive = subprocess.run(["git", "archive", BASELINE_REV], cwd=common.REPO, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
    target = os.path.join(root, "target")
    common.log(f"building the baseline offline plugin at {BASELINE_REV}")
    subprocess.run(
        [
            "cargo", "build", "--quiet", "-p", "parlance-plugin-offline", "--target", "wasm32-wasip2",
            "--profile", "plugin",
        ],
        cwd=src,
        env={**os.environ, "CARGO_TARGET_DIR": target},
        check=True,
    )
    return os.path.join(target, "wasm32-wasip2", "plugin", "parlance_plugin_offline.wasm")


def model_dir():
    path = os.environ.get("PARLANCE_EMBEDDINGS_MODEL_DIR") or os.path.join(common.REPO, "models", "all-MiniLM-L6-v2")
    if not os.path.exists(os.path.join(path, "model.safetensors")):
        sys.exit(f"the embedding model is missing at {path}: run scripts/fetch-model.sh")
    return path


def paraphrase_all(server, provider, texts):
    out = []
    start = time.perf_counter()
    for text in texts:
        body = common.request_json(
            server.api_port, "POST", "/paraphrase", {"text": text, "provider": provider, "skip_cache": True}
        )
        out.append(body)
    return out, time.perf_counter() - start


def evaluate(server, originals, paraphrases):
    body = common.request_json(
        server.api_port,
        "POST",
        "/evaluate/batch",
        {"originals": originals, "paraphrases": paraphrases, "include_semantic": True},
    )
    return [r["evaluation"] for r in body["results"]]


PROTECTED = re.compile(r"\d+(?:[:.,]\d+)*|(?<=\s)[A-Z][a-z]+\w*")


def kept_share(originals, paraphrases):
    """The share of numbers and capitalised words inside a sentence that the paraphrase still has."""
    wanted = kept = 0
    for o, p in zip(originals, paraphrases):
        for token in PROTECTED.findall(o):
            if token in ("I",):
                continue
            wanted += 1
            kept += token in p
    return kept / wanted if wanted else 1.0


def summarise(texts, bodies, scores, seconds):
    semantic = [s["semantic_similarity"] for s in scores]
    paraphrases = [b["paraphrase"] for b in bodies]
    return {
        "unchanged": sum(b["unchanged"] for b in bodies) / len(bodies),
        "mean": statistics.fmean(semantic),
        "min": min(semantic),
        "overlap": statistics.fmean(s["word_overlap"] for s in scores),
        "overall": statistics.fmean(s["overall_score"] for s in scores),
        "kept": kept_share(texts, paraphrases),
        "per_second": len(texts) / seconds,
    }


def main():
    binary = os.environ.get("PARLANCE_BIN") or common.build()
    component = baseline_component()
    config = (
        f'[embeddings]\nmodel_dir = "{model_dir()}"\n\n'
        f'[[plugin]]\nid = "offline-baseline"\nkind = "provider"\ncomponent = "{component}"\n'
    )
    server = common.Server(config_text=config, binary=binary)
    try:
        rows = []
        results = {}
        for name, path in SETS.items():
            with open(path) as f:
                texts = [line.strip() for line in f if line.strip()]
            runs = {"offline": [], "offline-baseline": []}
            for _ in range(ROUNDS):
                for provider in runs:
                    runs[provider].append(paraphrase_all(server, provider, texts))
            for provider, rounds in runs.items():
                seconds = common.median([s for _, s in rounds])
                bodies = rounds[0][0]
                if any(r[0][i]["paraphrase"] != bodies[i]["paraphrase"] for r in rounds for i in range(len(texts))):
                    sys.exit(f"{provider} is not deterministic on {name}")
                scores = evaluate(server, texts, [b["paraphrase"] for b in bodies])
                results[(name, provider)] = summarise(texts, bodies, scores, seconds)
                if os.environ.get("SHOW") == "1":
                    for t, b, s in zip(texts, bodies, scores):
                        print(f"[{name} {provider} {s['semantic_similarity']:.3f}] {t}\n    -> {b['paraphrase']}")
            cur, base = results[(name, "offline")], results[(name, "offline-baseline")]
            for key, label, fmt in [
                ("unchanged", "unchanged share", "{:.1%}"),
                ("mean", "semantic similarity, mean", "{:.3f}"),
                ("min", "semantic similarity, min", "{:.3f}"),
                ("overlap", "word_overlap, mean (lower: more change)", "{:.3f}"),
                ("overall", "overall score, mean", "{:.3f}"),
                ("kept", "numbers and names kept", "{:.1%}"),
                ("per_second", "paraphrases per second", "{:.0f}"),
            ]:
                ratio = cur[key] / base[key] if base[key] else float("inf")
                rows.append([f"{name} ({len(texts)})", label, fmt.format(cur[key]), fmt.format(base[key]), f"{ratio:.2f}"])
        print(common.machine_line())
        print(f"baseline: the offline plugin at {BASELINE_REV}; {ROUNDS} rounds, median for speed")
        common.table(rows, ["set", "measure", "current", "baseline", "ratio"])
        for name in SETS:
            cur = results[(name, "offline")]
            ok = (
                cur["unchanged"] <= TARGETS["unchanged"]
                and cur["mean"] >= TARGETS["mean"]
                and cur["min"] >= TARGETS["min"]
            )
            print(f"{name}: unchanged <= 10%, mean >= 0.85, min >= 0.7: {common.verdict(ok)}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
