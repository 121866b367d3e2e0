//! NLTK's `PorterStemmer` in its default `NLTK_EXTENSIONS` mode (nltk 3.x `nltk/stem/porter.py`).
//!
//! This is neither Snowball ("Porter2") nor Martin Porter's original algorithm: NLTK adds a pool of
//! irregular forms, leaves words of one or two characters alone, and changes steps 1a, 1b, 1c and 2
//! (`ies`/`ied` on four-letter words, `(*c and not c) Y -> I`, `alli` first, `fulli`, `logi`) plus
//! the `*o` condition on two-letter stems. rouge-score's `use_stemmer=True` uses exactly this mode,
//! so any deviation shows up as a ROUGE mismatch.
//!
//! The algorithm works on characters (Python indexes code points), so non-ASCII letters count as
//! consonants, as they do in NLTK.

/// Irregular forms checked before any rule, as NLTK's `pool`: word -> stem.
const IRREGULAR: &[(&str, &str)] = &[
    ("sky", "sky"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

/// Stems one word, lowercasing it first as NLTK's `stem(word)` does.
pub fn stem(word: &str) -> String {
    let mut out = String::new();
    PorterStemmer::default().stem_into(word, &mut out);
    out
}

/// A stemmer that reuses its scratch buffer across words.
#[derive(Default)]
pub struct PorterStemmer {
    word: Vec<char>,
}

impl PorterStemmer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Stems `word` into `out` (cleared first).
    pub fn stem_into(&mut self, word: &str, out: &mut String) {
        out.clear();
        let lowered;
        let lower: &str = if word.bytes().any(|b| b.is_ascii_uppercase()) || !word.is_ascii() {
            lowered = crate::pystr::lower(word);
            &lowered
        } else {
            word
        };
        if let Some(&(_, irregular)) = IRREGULAR.iter().find(|(form, _)| *form == lower) {
            out.push_str(irregular);
            return;
        }
        // NLTK measures the length of the word as given, before lowercasing.
        if word.chars().count() <= 2 {
            out.push_str(lower);
            return;
        }
        self.word.clear();
        self.word.extend(lower.chars());
        let w = &mut self.word;
        step1a(w);
        step1b(w);
        step1c(w);
        step2(w);
        step3(w);
        step4(w);
        step5a(w);
        step5b(w);
        out.extend(w.iter());
    }
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// NLTK's `_is_consonant`: `y` is a consonant unless the letter before it is one.
fn is_consonant(w: &[char], mut i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    if w[i] != 'y' {
        return true;
    }
    let mut negate = false;
    while i > 0 && w[i] == 'y' {
        negate = !negate;
        i -= 1;
    }
    // A consonant before the run of y's, flipped once per y.
    is_vowel(w[i]) == negate
}

/// The number of `VC` sequences in `[C](VC){m}[V]`.
fn measure(w: &[char]) -> usize {
    let mut m = 0;
    let mut prev_consonant = true;
    let mut prev_vowel = false;
    for (i, &c) in w.iter().enumerate() {
        let consonant = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !prev_consonant
        } else {
            true
        };
        if consonant && prev_vowel {
            m += 1;
        }
        prev_vowel = !consonant;
        prev_consonant = consonant;
    }
    m
}

fn contains_vowel(w: &[char]) -> bool {
    let mut prev_consonant = true;
    for (i, &c) in w.iter().enumerate() {
        let consonant = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !prev_consonant
        } else {
            true
        };
        if !consonant {
            return true;
        }
        prev_consonant = consonant;
    }
    false
}

fn ends_double_consonant(w: &[char]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// Condition `*o`, with NLTK's extension for two-letter stems.
fn ends_cvc(w: &[char]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

fn ends_with(w: &[char], suffix: &str) -> bool {
    let n = suffix.len();
    w.len() >= n && w[w.len() - n..].iter().copied().eq(suffix.chars())
}

fn replace_suffix(w: &mut Vec<char>, suffix_len: usize, replacement: &str) {
    w.truncate(w.len() - suffix_len);
    w.extend(replacement.chars());
}

/// A rule's condition, given the stem (the word without the suffix) and the whole word.
type Condition = fn(stem: &[char], word: &[char]) -> bool;

fn m_gt0(stem: &[char], _: &[char]) -> bool {
    measure(stem) > 0
}

fn m_gt1(stem: &[char], _: &[char]) -> bool {
    measure(stem) > 1
}

/// NLTK's `_apply_rule_list`: the first rule whose suffix matches decides, whether or not its
/// condition holds.
fn apply_rules(w: &mut Vec<char>, rules: &[(&str, &str, Option<Condition>)]) {
    for &(suffix, replacement, condition) in rules {
        if ends_with(w, suffix) {
            let stem_len = w.len() - suffix.len();
            if condition.is_none_or(|holds| holds(&w[..stem_len], w)) {
                replace_suffix(w, suffix.len(), replacement);
            }
            return;
        }
    }
}

fn step1a(w: &mut Vec<char>) {
    if ends_with(w, "ies") && w.len() == 4 {
        replace_suffix(w, 3, "ie");
        return;
    }
    apply_rules(w, &[("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)]);
}

fn step1b(w: &mut Vec<char>) {
    if ends_with(w, "ied") {
        let replacement = if w.len() == 4 { "ie" } else { "i" };
        replace_suffix(w, 3, replacement);
        return;
    }
    if ends_with(w, "eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            replace_suffix(w, 3, "ee");
        }
        return;
    }
    let mut succeeded = false;
    for suffix in ["ed", "ing"] {
        if ends_with(w, suffix) && contains_vowel(&w[..w.len() - suffix.len()]) {
            w.truncate(w.len() - suffix.len());
            succeeded = true;
            break;
        }
    }
    if !succeeded {
        return;
    }
    // The intermediate stem always holds a vowel, so it is not empty.
    for (suffix, replacement) in [("at", "ate"), ("bl", "ble"), ("iz", "ize")] {
        if ends_with(w, suffix) {
            replace_suffix(w, suffix.len(), replacement);
            return;
        }
    }
    if ends_double_consonant(w) {
        if !matches!(w[w.len() - 1], 'l' | 's' | 'z') {
            w.pop();
        }
        return;
    }
    if measure(w) == 1 && ends_cvc(w) {
        w.push('e');
    }
}

fn step1c(w: &mut Vec<char>) {
    if ends_with(w, "y") {
        let stem_len = w.len() - 1;
        if stem_len > 1 && is_consonant(w, stem_len - 1) {
            replace_suffix(w, 1, "i");
        }
    }
}

fn step2(w: &mut Vec<char>) {
    // NLTK applies ALLI -> AL first and, if it fires, runs step 2 again on the result.
    if ends_with(w, "alli") && measure(&w[..w.len() - 4]) > 0 {
        replace_suffix(w, 4, "al");
        step2(w);
        return;
    }
    apply_rules(
        w,
        &[
            ("ational", "ate", Some(m_gt0)),
            ("tional", "tion", Some(m_gt0)),
            ("enci", "ence", Some(m_gt0)),
            ("anci", "ance", Some(m_gt0)),
            ("izer", "ize", Some(m_gt0)),
            ("bli", "ble", Some(m_gt0)),
            ("alli", "al", Some(m_gt0)),
            ("entli", "ent", Some(m_gt0)),
            ("eli", "e", Some(m_gt0)),
            ("ousli", "ous", Some(m_gt0)),
            ("ization", "ize", Some(m_gt0)),
            ("ation", "ate", Some(m_gt0)),
            ("ator", "ate", Some(m_gt0)),
            ("alism", "al", Some(m_gt0)),
            ("iveness", "ive", Some(m_gt0)),
            ("fulness", "ful", Some(m_gt0)),
            ("ousness", "ous", Some(m_gt0)),
            ("aliti", "al", Some(m_gt0)),
            ("iviti", "ive", Some(m_gt0)),
            ("biliti", "ble", Some(m_gt0)),
            ("fulli", "ful", Some(m_gt0)),
            // The `l` of `logi` stays with the stem, so `geo`/`theo` stems qualify.
            ("logi", "log", Some(|_, word| measure(&word[..word.len() - 3]) > 0)),
        ],
    );
}

fn step3(w: &mut Vec<char>) {
    apply_rules(
        w,
        &[
            ("icate", "ic", Some(m_gt0)),
            ("ative", "", Some(m_gt0)),
            ("alize", "al", Some(m_gt0)),
            ("iciti", "ic", Some(m_gt0)),
            ("ical", "ic", Some(m_gt0)),
            ("ful", "", Some(m_gt0)),
            ("ness", "", Some(m_gt0)),
        ],
    );
}

fn step4(w: &mut Vec<char>) {
    apply_rules(
        w,
        &[
            ("al", "", Some(m_gt1)),
            ("ance", "", Some(m_gt1)),
            ("ence", "", Some(m_gt1)),
            ("er", "", Some(m_gt1)),
            ("ic", "", Some(m_gt1)),
            ("able", "", Some(m_gt1)),
            ("ible", "", Some(m_gt1)),
            ("ant", "", Some(m_gt1)),
            ("ement", "", Some(m_gt1)),
            ("ment", "", Some(m_gt1)),
            ("ent", "", Some(m_gt1)),
            ("ion", "", Some(|stem, _| measure(stem) > 1 && matches!(stem.last(), Some('s' | 't')))),
            ("ou", "", Some(m_gt1)),
            ("ism", "", Some(m_gt1)),
            ("ate", "", Some(m_gt1)),
            ("iti", "", Some(m_gt1)),
            ("ous", "", Some(m_gt1)),
            ("ive", "", Some(m_gt1)),
            ("ize", "", Some(m_gt1)),
        ],
    );
}

fn step5a(w: &mut Vec<char>) {
    // Both rules share the suffix, so unlike `apply_rules` the second is tried when the first fails.
    if ends_with(w, "e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            w.pop();
        }
    }
}

fn step5b(w: &mut Vec<char>) {
    if ends_with(w, "ll") && measure(&w[..w.len() - 1]) > 1 {
        w.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(pairs: &[(&str, &str)]) {
        let mut stemmer = PorterStemmer::new();
        let mut out = String::new();
        let mut wrong = Vec::new();
        for &(word, expected) in pairs {
            stemmer.stem_into(word, &mut out);
            if out != expected {
                wrong.push(format!("{word} -> {out}, NLTK gives {expected}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn paper_examples() {
        // Values produced by nltk.stem.PorterStemmer() (NLTK_EXTENSIONS).
        check(&[
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("caress", "caress"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("bled", "bled"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("troubled", "troubl"),
            ("sized", "size"),
            ("hopping", "hop"),
            ("tanned", "tan"),
            ("falling", "fall"),
            ("hissing", "hiss"),
            ("fizzed", "fizz"),
            ("failing", "fail"),
            ("filing", "file"),
            ("happy", "happi"),
            ("sky", "sky"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("rational", "ration"),
            ("valenci", "valenc"),
            ("digitizer", "digit"),
            ("conformabli", "conform"),
            ("radicalli", "radic"),
            ("differentli", "differ"),
            ("vileli", "vile"),
            ("analogousli", "analog"),
            ("vietnamization", "vietnam"),
            ("predication", "predic"),
            ("operator", "oper"),
            ("feudalism", "feudal"),
            ("decisiveness", "decis"),
            ("hopefulness", "hope"),
            ("callousness", "callous"),
            ("formaliti", "formal"),
            ("sensitiviti", "sensit"),
            ("sensibiliti", "sensibl"),
            ("triplicate", "triplic"),
            ("formative", "form"),
            ("formalize", "formal"),
            ("electriciti", "electr"),
            ("electrical", "electr"),
            ("hopeful", "hope"),
            ("goodness", "good"),
            ("revival", "reviv"),
            ("allowance", "allow"),
            ("inference", "infer"),
            ("airliner", "airlin"),
            ("gyroscopic", "gyroscop"),
            ("adjustable", "adjust"),
            ("defensible", "defens"),
            ("irritant", "irrit"),
            ("replacement", "replac"),
            ("adjustment", "adjust"),
            ("dependent", "depend"),
            ("adoption", "adopt"),
            ("homologou", "homolog"),
            ("communism", "commun"),
            ("activate", "activ"),
            ("angulariti", "angular"),
            ("homologous", "homolog"),
            ("effective", "effect"),
            ("bowdlerize", "bowdler"),
            ("probate", "probat"),
            ("rate", "rate"),
            ("cease", "ceas"),
            ("controll", "control"),
            ("roll", "roll"),
        ]);
    }

    #[test]
    fn nltk_extensions() {
        // Values produced by nltk.stem.PorterStemmer() (NLTK_EXTENSIONS).
        check(&[
            ("skies", "sky"),
            ("dying", "die"),
            ("lying", "lie"),
            ("tying", "tie"),
            ("news", "news"),
            ("innings", "inning"),
            ("outings", "outing"),
            ("cannings", "canning"),
            ("howe", "howe"),
            ("proceed", "proceed"),
            ("exceed", "exceed"),
            ("succeed", "succeed"),
            ("dies", "die"),
            ("flies", "fli"),
            ("died", "die"),
            ("spied", "spi"),
            ("enjoy", "enjoy"),
            ("spy", "spi"),
            ("fly", "fli"),
            ("generously", "gener"),
            ("fully", "fulli"),
            ("archaeology", "archaeolog"),
            ("geology", "geolog"),
            ("is", "is"),
            ("as", "as"),
            ("a", "a"),
            ("Running", "run"),
            ("SKIES", "sky"),
            ("yyyy", "yyyi"),
            ("syzygy", "syzygi"),
            ("organizational", "organiz"),
            ("abilities", "abil"),
            ("traditional", "tradit"),
            ("logically", "logic"),
            ("analogies", "analog"),
            ("easily", "easili"),
            ("café", "café"),
            ("naïve", "naïv"),
        ]);
    }
}
