#!/usr/bin/env python3
"""Regenerates host/embeddings/tests/data/tokenizer-fixtures.json: the token ids that Hugging Face's
own tokenizer (the `tokenizers` package, reading the model's tokenizer.json) gives for tricky
strings, with truncation at sentence-transformers' max_seq_length as SentenceTransformer applies it.

The Rust tokenizer in host/embeddings is tested against these ids. Run after changing the cases or
the model:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install tokenizers==0.23.3
    /tmp/venv/bin/python scripts/gen-tokenizer-fixtures.py [MODEL_DIR]

With --exhaustive FILE it also writes the ids of "x<c>x" for every Unicode scalar value c (about
1.1 million lines, not committed), which the ignored test `every_code_point_matches_huggingface`
checks when PARLANCE_TOKENIZER_EXHAUSTIVE names that file.
"""

import argparse
import hashlib
import json
import pathlib

import tokenizers

REPO = pathlib.Path(__file__).resolve().parent.parent
OUT = REPO / "host/embeddings/tests/data/tokenizer-fixtures.json"

CASES = [
    ("empty", ""),
    ("only spaces", "   \t\n  "),
    ("plain", "The quick brown fox jumps over the lazy dog."),
    ("capitals", "HELLO World, HeLLo WoRLD"),
    ("accents", "Café naïve façade résumé Ångström Zoë São Paulo"),
    ("combining marks", "e\u0301 n\u0303 a\u0308\u0304 o\u0328"),
    ("turkish dotted i", "İstanbul ıspanak İI"),
    ("german sharp s", "Straße STRASSE ẞ"),
    ("greek final sigma", "ΣΊΣΥΦΟΣ ὈΔΥΣΣΕΎΣ"),
    ("cyrillic", "Привет, мир! Ёжик"),
    ("cjk", "我爱北京天安门。野口里佳 Noguchi Rika"),
    ("cjk extension b", "\U00020000\U0002a6d6 𠀀𪛖"),
    ("japanese kana", "こんにちは、カタカナ。ﾊﾝｶｸ"),
    ("korean", "안녕하세요 세계"),
    ("thai", "สวัสดีครับ"),
    ("arabic and hebrew", "مرحبا بالعالم שלום עולם"),
    ("devanagari", "नमस्ते दुनिया"),
    ("emoji", "I love 🍕 and 🐍! 👍🏽 👨‍👩‍👧 🇫🇷"),
    ("punctuation", "Hello!!! What?? (yes) [no] {maybe} <tag> a/b\\c \"quoted\" 'single' `tick`"),
    ("ascii symbols", "$100 & 50% off #hashtag @user ^caret ~tilde |pipe| +plus= *star* _under_"),
    ("unicode punctuation", "«quote» “curly” ‘single’ — en–dash … ¿qué? ¡sí! ‹›"),
    ("math and currency", "∑ x² ≤ ∞ ± √2 €5 £3 ¥7 ₹9 ℃ №1"),
    ("numbers", "3.14159 1,000,000 1e-10 0x1F 2nd 3rd 42"),
    ("contractions", "don't won't I'm you're it's y'all"),
    ("urls and emails", "https://example.com/path?q=1&r=2 user.name+tag@example.co.uk"),
    ("hyphenated", "state-of-the-art well-known 20-year-old"),
    ("whitespace kinds", "a\u00a0b\u2003c\u3000d\te\nf\rg\u2028h\u0085i"),
    ("zero width", "zero\u200bwidth\u200cjoin\u200dnon\ufeffbom"),
    ("controls", "bell\x07 null\x00 escape\x1b del\x7f replacement\ufffd end"),
    ("private use and tags", "\ue000 \U000f0000 flag\U000e0067\U000e0062"),
    ("long word under limit", "a" * 100),
    ("long word over limit", "b" * 101),
    ("long word mixed", "Pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilisticexpialidocious"),
    ("unknown word", "qqqqzzzzxxxx ⅧⅨ"),
    ("special tokens in text", "[CLS] hello [SEP] world [MASK] [PAD] [UNK] [cls] [SEP"),
    ("special token glued", "x[SEP]y[MASK][MASK]"),
    ("fullwidth", "ＦＵＬＬＷＩＤＴＨ １２３ ！"),
    ("ligatures", "ﬁnance ﬂower Æsir œuvre"),
    ("repeated punctuation", "..." * 20 + "!?" * 10),
    ("mixed scripts", "Tokyo東京Токио טוקיו طوكيو"),
    ("reference sample", "997  e.g. sky\n:  formalize3.5\tshe innings\tcats "),
    # Truncation: sentence-transformers keeps the first max_seq_length - 2 word pieces.
    ("truncated plain", " ".join(["word"] * 300)),
    ("truncated mid word", "x " * 253 + "unaffordability " * 4),
    ("truncated at boundary", " ".join(["cat"] * 254)),
    ("one over the boundary", " ".join(["cat"] * 255)),
    ("truncated cjk", "中文" * 200),
    ("truncated special", "[SEP] " * 300),
]

# Every code point of these ranges, each as "x<c>x" separated by spaces: shows whether the
# character is whitespace, punctuation, control, CJK or a letter, and how it normalises.
SWEEPS = [
    (0x0000, 0x0300),
    (0x0300, 0x0370),
    (0x0370, 0x0530),
    (0x0590, 0x0700),
    (0x0900, 0x0980),
    (0x0E00, 0x0E80),
    (0x1100, 0x1120),
    (0x1680, 0x1690),
    (0x1E00, 0x1F00),
    (0x1F00, 0x2000),
    (0x2000, 0x2070),
    (0x2070, 0x20D0),
    (0x2100, 0x2190),
    (0x2190, 0x2200),
    (0x2460, 0x24F0),
    (0x2C60, 0x2C80),
    (0x2E00, 0x2E60),
    (0x3000, 0x3100),
    (0x3400, 0x3408),
    (0x4DB8, 0x4E08),
    (0x9FF8, 0xA008),
    (0xA720, 0xA800),
    (0xAC00, 0xAC10),
    (0xD7F0, 0xD800),
    (0xE000, 0xE008),
    (0xF8F8, 0xF908),
    (0xFAF8, 0xFB58),
    (0xFE00, 0xFE70),
    (0xFF00, 0x10000),
    (0x10400, 0x10450),
    (0x1D400, 0x1D420),
    (0x1F300, 0x1F320),
    (0x1F600, 0x1F650),
    (0x1F900, 0x1F920),
    (0x20000, 0x20008),
    (0x2A6D8, 0x2A708),
    (0x2B738, 0x2B748),
    (0x2B818, 0x2B828),
    (0x2B918, 0x2B928),
    (0x2CEA8, 0x2CEB8),
    (0x2F800, 0x2F808),
    (0x2FA18, 0x2FA28),
    (0xE0000, 0xE0080),
    (0xF0000, 0xF0008),
    (0x10FFF8, 0x110000),
]


def sweep_cases(lo, hi, per_case=48):
    """Cut in pieces short enough that truncation never hides a code point."""
    points = [c for c in range(lo, hi) if not 0xD800 <= c < 0xE000]
    for i in range(0, len(points), per_case):
        chunk = points[i : i + per_case]
        yield f"sweep U+{chunk[0]:04X}..U+{chunk[-1]:04X}", " ".join(f"x{chr(c)}x" for c in chunk)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model", nargs="?", default=str(REPO / "models/all-MiniLM-L6-v2"))
    parser.add_argument("--exhaustive", metavar="FILE")
    args = parser.parse_args()
    model = pathlib.Path(args.model)

    max_length = json.loads((model / "sentence_bert_config.json").read_text())["max_seq_length"]
    tokenizer = tokenizers.Tokenizer.from_file(str(model / "tokenizer.json"))
    # As SentenceTransformer calls it: no padding (one text at a time), truncation to max_seq_length.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_length)

    cases = list(CASES) + [case for lo, hi in SWEEPS for case in sweep_cases(lo, hi)]
    fixtures = []
    for name, text in cases:
        ids = tokenizer.encode(text).ids
        if name.startswith("sweep") and len(ids) >= max_length:
            raise SystemExit(f"{name} reaches max_length: make sweep pieces smaller")
        fixtures.append({"name": name, "text": text, "ids": ids})

    out = {
        "generator": "scripts/gen-tokenizer-fixtures.py",
        "tokenizers_version": tokenizers.__version__,
        "tokenizer_json_sha256": hashlib.sha256((model / "tokenizer.json").read_bytes()).hexdigest(),
        "max_length": max_length,
        "cases": fixtures,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    # One case per line keeps diffs of regenerated fixtures readable.
    with OUT.open("w", encoding="utf-8") as f:
        f.write("{\n")
        for key in ("generator", "tokenizers_version", "tokenizer_json_sha256", "max_length"):
            f.write(f"  {json.dumps(key)}: {json.dumps(out[key])},\n")
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, ensure_ascii=True) for c in fixtures))
        f.write("\n  ]\n}\n")
    print(f"wrote {len(fixtures)} cases to {OUT.relative_to(REPO)}")

    if args.exhaustive:
        tokenizer.no_truncation()
        points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
        encodings = tokenizer.encode_batch([f"x{chr(c)}x" for c in points])
        with open(args.exhaustive, "w") as f:
            for c, e in zip(points, encodings):
                f.write(f"{c} {' '.join(map(str, e.ids))}\n")
        print(f"wrote {len(points)} code points to {args.exhaustive}")


if __name__ == "__main__":
    main()
