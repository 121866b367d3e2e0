//! English morphology: lemmatising a word form (WordNet's morphy rules and exception lists),
//! inflecting a lemma back into a form, and weighing a form's readings by their SemCor evidence.
//!
//! Every analysis is checked by inflecting its lemma again: a rule only counts when it would
//! produce the very word it was applied to ("hating" is not "hat" + "ing", because "hat" gives
//! "hatting"). That keeps lemmatisation and re-inflection consistent by construction.

use crate::lexicon::{self, Entry, Pos};

/// The inflected form of a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    Base,
    /// A plural noun.
    Plural,
    /// A verb's third person singular present ("jumps").
    ThirdPerson,
    /// A verb's simple past ("began").
    Past,
    /// A verb's past participle ("begun").
    Participle,
    /// A form that is both past and past participle ("jumped", "sat").
    PastOrParticiple,
    /// A verb's present participle or gerund ("jumping").
    Gerund,
    Comparative,
    Superlative,
}

/// One reading of a word form: its lemma, part of speech and form.
#[derive(Clone, Copy, Debug)]
pub struct Analysis {
    pub entry: Entry,
    pub pos: Pos,
    pub form: Form,
    /// SemCor tag count of the lemma in this part of speech.
    pub weight: u32,
}

/// Irregular verbs as (base, past, past participle). WordNet's exception list has the forms but
/// not which is which, and "sang" for "sung" is the kind of error a reader notices at once.
const IRREGULAR_VERBS: &[(&str, &str, &str)] = &[
    ("arise", "arose", "arisen"),
    ("awake", "awoke", "awoken"),
    ("bear", "bore", "borne"),
    ("beat", "beat", "beaten"),
    ("become", "became", "become"),
    ("begin", "began", "begun"),
    ("bend", "bent", "bent"),
    ("bet", "bet", "bet"),
    ("bid", "bid", "bid"),
    ("bind", "bound", "bound"),
    ("bite", "bit", "bitten"),
    ("bleed", "bled", "bled"),
    ("blow", "blew", "blown"),
    ("break", "broke", "broken"),
    ("breed", "bred", "bred"),
    ("bring", "brought", "brought"),
    ("broadcast", "broadcast", "broadcast"),
    ("build", "built", "built"),
    ("burst", "burst", "burst"),
    ("buy", "bought", "bought"),
    ("cast", "cast", "cast"),
    ("catch", "caught", "caught"),
    ("choose", "chose", "chosen"),
    ("cling", "clung", "clung"),
    ("come", "came", "come"),
    ("cost", "cost", "cost"),
    ("creep", "crept", "crept"),
    ("cut", "cut", "cut"),
    ("deal", "dealt", "dealt"),
    ("dig", "dug", "dug"),
    ("dive", "dived", "dived"),
    ("do", "did", "done"),
    ("draw", "drew", "drawn"),
    ("dream", "dreamed", "dreamed"),
    ("drink", "drank", "drunk"),
    ("drive", "drove", "driven"),
    ("eat", "ate", "eaten"),
    ("fall", "fell", "fallen"),
    ("feed", "fed", "fed"),
    ("feel", "felt", "felt"),
    ("fight", "fought", "fought"),
    ("find", "found", "found"),
    ("flee", "fled", "fled"),
    ("fling", "flung", "flung"),
    ("fly", "flew", "flown"),
    ("forbid", "forbade", "forbidden"),
    ("forecast", "forecast", "forecast"),
    ("foresee", "foresaw", "foreseen"),
    ("forget", "forgot", "forgotten"),
    ("forgive", "forgave", "forgiven"),
    ("freeze", "froze", "frozen"),
    ("get", "got", "gotten"),
    ("give", "gave", "given"),
    ("go", "went", "gone"),
    ("grind", "ground", "ground"),
    ("grow", "grew", "grown"),
    ("hang", "hung", "hung"),
    ("have", "had", "had"),
    ("hear", "heard", "heard"),
    ("hide", "hid", "hidden"),
    ("hit", "hit", "hit"),
    ("hold", "held", "held"),
    ("hurt", "hurt", "hurt"),
    ("keep", "kept", "kept"),
    ("kneel", "knelt", "knelt"),
    ("know", "knew", "known"),
    ("lay", "laid", "laid"),
    ("lead", "led", "led"),
    ("lean", "leaned", "leaned"),
    ("leap", "leapt", "leapt"),
    ("learn", "learned", "learned"),
    ("leave", "left", "left"),
    ("lend", "lent", "lent"),
    ("let", "let", "let"),
    ("lie", "lay", "lain"),
    ("light", "lit", "lit"),
    ("lose", "lost", "lost"),
    ("make", "made", "made"),
    ("mean", "meant", "meant"),
    ("meet", "met", "met"),
    ("mislead", "misled", "misled"),
    ("mistake", "mistook", "mistaken"),
    ("mow", "mowed", "mown"),
    ("overcome", "overcame", "overcome"),
    ("overtake", "overtook", "overtaken"),
    ("pay", "paid", "paid"),
    ("prove", "proved", "proven"),
    ("put", "put", "put"),
    ("quit", "quit", "quit"),
    ("read", "read", "read"),
    ("rid", "rid", "rid"),
    ("ride", "rode", "ridden"),
    ("ring", "rang", "rung"),
    ("rise", "rose", "risen"),
    ("run", "ran", "run"),
    ("saw", "sawed", "sawn"),
    ("say", "said", "said"),
    ("see", "saw", "seen"),
    ("seek", "sought", "sought"),
    ("sell", "sold", "sold"),
    ("send", "sent", "sent"),
    ("set", "set", "set"),
    ("sew", "sewed", "sewn"),
    ("shake", "shook", "shaken"),
    ("shear", "sheared", "shorn"),
    ("shed", "shed", "shed"),
    ("shine", "shone", "shone"),
    ("shoot", "shot", "shot"),
    ("show", "showed", "shown"),
    ("shrink", "shrank", "shrunk"),
    ("shut", "shut", "shut"),
    ("sing", "sang", "sung"),
    ("sink", "sank", "sunk"),
    ("sit", "sat", "sat"),
    ("slay", "slew", "slain"),
    ("sleep", "slept", "slept"),
    ("slide", "slid", "slid"),
    ("sling", "slung", "slung"),
    ("slit", "slit", "slit"),
    ("sow", "sowed", "sown"),
    ("speak", "spoke", "spoken"),
    ("speed", "sped", "sped"),
    ("spend", "spent", "spent"),
    ("spin", "spun", "spun"),
    ("spit", "spat", "spat"),
    ("split", "split", "split"),
    ("spread", "spread", "spread"),
    ("spring", "sprang", "sprung"),
    ("stand", "stood", "stood"),
    ("steal", "stole", "stolen"),
    ("stick", "stuck", "stuck"),
    ("sting", "stung", "stung"),
    ("stink", "stank", "stunk"),
    ("stride", "strode", "stridden"),
    ("strike", "struck", "struck"),
    ("string", "strung", "strung"),
    ("strive", "strove", "striven"),
    ("swear", "swore", "sworn"),
    ("sweep", "swept", "swept"),
    ("swell", "swelled", "swollen"),
    ("swim", "swam", "swum"),
    ("swing", "swung", "swung"),
    ("take", "took", "taken"),
    ("teach", "taught", "taught"),
    ("tear", "tore", "torn"),
    ("tell", "told", "told"),
    ("think", "thought", "thought"),
    ("throw", "threw", "thrown"),
    ("thrust", "thrust", "thrust"),
    ("tread", "trod", "trodden"),
    ("understand", "understood", "understood"),
    ("undertake", "undertook", "undertaken"),
    ("upset", "upset", "upset"),
    ("wake", "woke", "woken"),
    ("wear", "wore", "worn"),
    ("weave", "wove", "woven"),
    ("weep", "wept", "wept"),
    ("win", "won", "won"),
    ("wind", "wound", "wound"),
    ("withdraw", "withdrew", "withdrawn"),
    ("wring", "wrung", "wrung"),
    ("write", "wrote", "written"),
];

fn irregular_verb(base: &str) -> Option<(&'static str, &'static str)> {
    IRREGULAR_VERBS
        .binary_search_by(|(b, _, _)| b.cmp(&base))
        .ok()
        .map(|i| (IRREGULAR_VERBS[i].1, IRREGULAR_VERBS[i].2))
}

const VOWELS: &[u8] = b"aeiou";

fn is_vowel(b: u8) -> bool {
    VOWELS.contains(&b)
}

/// Vowel groups, not counting a silent final "e": a rough syllable count, good enough to tell
/// "big" and "happy" (which inflect) from "rapid" (which takes "more").
fn syllables(word: &str) -> usize {
    let b = word.as_bytes();
    let mut count = 0;
    let mut prev_vowel = false;
    for (i, &c) in b.iter().enumerate() {
        let vowel = is_vowel(c) || (c == b'y' && i > 0);
        if vowel && !prev_vowel {
            count += 1;
        }
        prev_vowel = vowel;
    }
    let silent_e = b.len() > 2 && b.ends_with(b"e") && !b.ends_with(b"le") && !is_vowel(b[b.len() - 2]);
    if silent_e && count > 1 {
        count -= 1;
    }
    count.max(1)
}

/// One syllable ending consonant-vowel-consonant ("stop", "big"): the final consonant doubles.
fn doubles_final(word: &str) -> bool {
    let b = word.as_bytes();
    let n = b.len();
    n >= 3
        && syllables(word) == 1
        && !is_vowel(b[n - 1])
        && !b"wxy".contains(&b[n - 1])
        && is_vowel(b[n - 2])
        && !is_vowel(b[n - 3])
        && !(n >= 4 && b[n - 3] == b'u' && b[n - 4] == b'q')
}

fn ends_consonant_y(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 2 && b[b.len() - 1] == b'y' && !is_vowel(b[b.len() - 2])
}

fn sibilant(word: &str) -> bool {
    ["s", "x", "z", "ch", "sh"].iter().any(|s| word.ends_with(s))
}

fn with_last_doubled(word: &str, suffix: &str) -> String {
    let last = &word[word.len() - 1..];
    format!("{word}{last}{suffix}")
}

/// Nouns whose irregular plural in WordNet is archaic or learned ("brethren", "camerae",
/// "taxies"): everyday English uses the regular one.
const REGULAR_PLURAL: &[&str] =
    &["beef", "brother", "camera", "cry", "gas", "genius", "ghetto", "mamma", "taxi", "torso", "vacuum"];

fn plural(noun: &str) -> String {
    if let Some(form) = lexicon::irregular_forms(noun, Pos::Noun).next()
        && !REGULAR_PLURAL.contains(&noun)
    {
        return form.to_owned();
    }
    if sibilant(noun) {
        format!("{noun}es")
    } else if ends_consonant_y(noun) {
        format!("{}ies", &noun[..noun.len() - 1])
    } else {
        format!("{noun}s")
    }
}

fn third_person(verb: &str) -> String {
    // The one verb whose third person drops a letter ("drinks coffee" -> "has coffee").
    if verb == "have" {
        return "has".to_owned();
    }
    if sibilant(verb) || verb.ends_with('o') {
        format!("{verb}es")
    } else if ends_consonant_y(verb) {
        format!("{}ies", &verb[..verb.len() - 1])
    } else {
        format!("{verb}s")
    }
}

fn gerund(verb: &str) -> String {
    if let Some(form) = lexicon::irregular_forms(verb, Pos::Verb).find(|f| f.ends_with("ing")) {
        return form.to_owned();
    }
    if let Some(stem) = verb.strip_suffix("ie") {
        format!("{stem}ying")
    } else if verb.ends_with('e') && !["ee", "oe", "ye"].iter().any(|s| verb.ends_with(s)) && verb.len() > 2 {
        format!("{}ing", &verb[..verb.len() - 1])
    } else if doubles_final(verb) {
        with_last_doubled(verb, "ing")
    } else {
        format!("{verb}ing")
    }
}

fn regular_past(verb: &str) -> String {
    if verb.ends_with('e') {
        format!("{verb}d")
    } else if ends_consonant_y(verb) {
        format!("{}ied", &verb[..verb.len() - 1])
    } else if doubles_final(verb) {
        with_last_doubled(verb, "ed")
    } else {
        format!("{verb}ed")
    }
}

/// (past, past participle) of a verb.
fn past_forms(verb: &str) -> (String, String) {
    if let Some((past, participle)) = irregular_verb(verb) {
        return (past.to_owned(), participle.to_owned());
    }
    // Not in our table: WordNet's exception list still knows doubled ("admitted") and odd
    // ("leapt") forms, but not which is past and which participle, so only a single form is used,
    // and one ending in "n" ("proven") is taken as participle only.
    let irregular: Vec<&str> = lexicon::irregular_forms(verb, Pos::Verb)
        .filter(|f| !f.ends_with("ing") && !f.ends_with('s'))
        .collect();
    if let [form] = irregular[..] {
        if form.ends_with('n') && !verb.ends_with('n') && !form.ends_with("ed") {
            return (regular_past(verb), form.to_owned());
        }
        return (form.to_owned(), form.to_owned());
    }
    let regular = regular_past(verb);
    (regular.clone(), regular)
}

/// Comparative and superlative, when the adjective takes "-er"/"-est" at all.
fn graded(adj: &str, superlative: bool) -> Option<String> {
    let irregular = lexicon::irregular_forms(adj, Pos::Adj).find(|f| f.ends_with("st") == superlative);
    if let Some(form) = irregular {
        return Some(form.to_owned());
    }
    let suffix = if superlative { "est" } else { "er" };
    match syllables(adj) {
        1 if adj.ends_with('e') => Some(format!("{adj}{}", &suffix[1..])),
        1 if doubles_final(adj) => Some(with_last_doubled(adj, suffix)),
        1 if ends_consonant_y(adj) => Some(format!("{}i{suffix}", &adj[..adj.len() - 1])),
        1 => Some(format!("{adj}{suffix}")),
        2 if ends_consonant_y(adj) => Some(format!("{}i{suffix}", &adj[..adj.len() - 1])),
        _ => None,
    }
}

/// A lemma put into a form; `None` when the form does not exist for that part of speech or the
/// word does not take it ("rapid" has no "-er" comparative).
pub fn inflect(lemma: &str, pos: Pos, form: Form) -> Option<String> {
    if lemma.is_empty() || !lemma.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    match (pos, form) {
        (_, Form::Base) => Some(lemma.to_owned()),
        (Pos::Noun, Form::Plural) => Some(plural(lemma)),
        (Pos::Verb, Form::ThirdPerson) => Some(third_person(lemma)),
        (Pos::Verb, Form::Gerund) => Some(gerund(lemma)),
        (Pos::Verb, Form::Past) => Some(past_forms(lemma).0),
        (Pos::Verb, Form::Participle) => Some(past_forms(lemma).1),
        (Pos::Verb, Form::PastOrParticiple) => {
            let (past, participle) = past_forms(lemma);
            (past == participle).then_some(past)
        }
        (Pos::Adj, Form::Comparative) => graded(lemma, false),
        (Pos::Adj, Form::Superlative) => graded(lemma, true),
        _ => None,
    }
}

/// Morphy's detachment rules: (suffix, replacement, form).
const NOUN_RULES: &[(&str, &str, Form)] = &[
    ("s", "", Form::Plural),
    ("ses", "s", Form::Plural),
    ("xes", "x", Form::Plural),
    ("zes", "z", Form::Plural),
    ("ches", "ch", Form::Plural),
    ("shes", "sh", Form::Plural),
    ("men", "man", Form::Plural),
    ("ies", "y", Form::Plural),
];
const VERB_RULES: &[(&str, &str, Form)] = &[
    ("s", "", Form::ThirdPerson),
    ("ies", "y", Form::ThirdPerson),
    ("es", "e", Form::ThirdPerson),
    ("es", "", Form::ThirdPerson),
    ("ed", "e", Form::PastOrParticiple),
    ("ed", "", Form::PastOrParticiple),
    ("ied", "y", Form::PastOrParticiple),
    ("ing", "e", Form::Gerund),
    ("ing", "", Form::Gerund),
];
const ADJ_RULES: &[(&str, &str, Form)] = &[
    ("er", "", Form::Comparative),
    ("est", "", Form::Superlative),
    ("er", "e", Form::Comparative),
    ("est", "e", Form::Superlative),
    ("ier", "y", Form::Comparative),
    ("iest", "y", Form::Superlative),
];

/// The form an irregular verb form has, judged from our table, else from its shape.
fn irregular_verb_form(form: &str, base: &str) -> Form {
    if let Some((past, participle)) = irregular_verb(base) {
        return match (form == past, form == participle) {
            (true, true) => Form::PastOrParticiple,
            (true, false) => Form::Past,
            (false, true) => Form::Participle,
            (false, false) if form.ends_with("ing") => Form::Gerund,
            (false, false) => Form::PastOrParticiple,
        };
    }
    if form.ends_with("ing") { Form::Gerund } else { Form::PastOrParticiple }
}

/// How much of a word's evidence some of its readings hold: SemCor counts, each plus one, so
/// that a reading SemCor never tagged still counts a little.
#[derive(Clone, Copy, Debug)]
pub struct Evidence {
    kept: u32,
    total: u32,
}

impl Evidence {
    /// Whether the kept readings hold at least `num / den` of the evidence of a word that has any.
    pub fn at_least(self, num: u32, den: u32) -> bool {
        self.total > 0 && self.kept * den >= self.total * num
    }

    /// Whether the kept readings hold more than `num / den` of it.
    pub fn more_than(self, num: u32, den: u32) -> bool {
        self.total > 0 && self.kept * den > self.total * num
    }
}

/// The evidence of `analyses` (one word's readings) that the readings `keep` accepts hold.
pub fn evidence(analyses: &[Analysis], keep: impl Fn(&Analysis) -> bool) -> Evidence {
    let weight = |a: &Analysis| a.weight + 1;
    Evidence {
        kept: analyses.iter().filter(|a| keep(a)).map(weight).sum(),
        total: analyses.iter().map(weight).sum(),
    }
}

/// A verb form that can only head a clause: a past or third-person form (or one that may also be
/// a participle, when `participle` says so).
pub fn is_finite(a: &Analysis, participle: bool) -> bool {
    a.pos == Pos::Verb
        && (matches!(a.form, Form::Past | Form::ThirdPerson)
            || (participle && a.form == Form::PastOrParticiple))
}

/// Every reading of a lowercase ASCII word that the lexicon knows, each confirmed by
/// re-inflection. Function words have none.
pub fn analyse(word: &str) -> Vec<Analysis> {
    let mut out: Vec<Analysis> = Vec::new();
    if word.len() < 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) || lexicon::is_stopword(word) {
        return out;
    }
    let push = |out: &mut Vec<Analysis>, entry: Entry, pos: Pos, form: Form| {
        let Some(sense) = entry.sense(pos) else { return };
        if !out.iter().any(|a| a.entry.lemma == entry.lemma && a.pos == pos && a.form == form) {
            out.push(Analysis { entry, pos, form, weight: sense.weight });
        }
    };
    // Function words have no entry, so a found lemma is always a content word.
    if let Some(entry) = lexicon::lookup(word) {
        for pos in Pos::ALL {
            push(&mut out, entry, pos, Form::Base);
        }
    }
    for (base, pos) in lexicon::irregular_bases(word) {
        let form = match pos {
            Pos::Noun => Form::Plural,
            Pos::Verb => irregular_verb_form(word, base),
            Pos::Adj if word.ends_with("st") => Form::Superlative,
            Pos::Adj => Form::Comparative,
            Pos::Adv => continue,
        };
        if let Some(entry) = lexicon::lookup(base) {
            push(&mut out, entry, pos, form);
        }
    }
    for (pos, rules) in [(Pos::Noun, NOUN_RULES), (Pos::Verb, VERB_RULES), (Pos::Adj, ADJ_RULES)] {
        for &(suffix, replacement, form) in rules {
            let Some(stem) = word.strip_suffix(suffix) else { continue };
            if stem.len() < 2 {
                continue;
            }
            let lemma = format!("{stem}{replacement}");
            // The lookup first: most stems are not words, and it is cheaper than inflecting.
            let Some(entry) = lexicon::lookup(&lemma) else { continue };
            let reproduces = |f: Form| inflect(&lemma, pos, f).as_deref() == Some(word);
            let confirmed = match form {
                // A regular "-ed" is the past and the participle alike.
                // "burned" beside "burnt", "learned" beside "learnt": both are English.
                Form::PastOrParticiple => {
                    (reproduces(Form::Past) && reproduces(Form::Participle))
                        || (regular_past(&lemma) == word && past_forms(&lemma).0.ends_with('t'))
                }
                f => reproduces(f),
            };
            if confirmed {
                push(&mut out, entry, pos, form);
            } else if form == Form::PastOrParticiple && reproduces(Form::Past) {
                // "showed", "sewed": a regular past beside an irregular participle ("shown").
                push(&mut out, entry, pos, Form::Past);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyday_plurals_over_archaic_ones() {
        assert_eq!(inflect("brother", Pos::Noun, Form::Plural).as_deref(), Some("brothers"));
        assert_eq!(inflect("taxi", Pos::Noun, Form::Plural).as_deref(), Some("taxis"));
        assert_eq!(inflect("child", Pos::Noun, Form::Plural).as_deref(), Some("children"));
        assert!(analyse("brothers").iter().any(|a| a.entry.lemma == "brother" && a.form == Form::Plural));
        assert!(
            analyse("burned").iter().any(|a| a.entry.lemma == "burn" && a.form == Form::PastOrParticiple)
        );
    }

    #[test]
    fn noun_plurals() {
        let table = [
            ("dog", "dogs"),
            ("box", "boxes"),
            ("church", "churches"),
            ("city", "cities"),
            ("day", "days"),
            ("mouse", "mice"),
            ("child", "children"),
            ("wife", "wives"),
            ("criterion", "criteria"),
            ("automobile", "automobiles"),
        ];
        for (lemma, plural) in table {
            assert_eq!(inflect(lemma, Pos::Noun, Form::Plural).as_deref(), Some(plural), "{lemma}");
        }
    }

    #[test]
    fn verb_forms() {
        // base, 3rd person, past, participle, gerund
        let table = [
            ("leap", "leaps", "leapt", "leapt", "leaping"),
            ("jump", "jumps", "jumped", "jumped", "jumping"),
            ("stop", "stops", "stopped", "stopped", "stopping"),
            ("admit", "admits", "admitted", "admitted", "admitting"),
            ("visit", "visits", "visited", "visited", "visiting"),
            ("try", "tries", "tried", "tried", "trying"),
            ("play", "plays", "played", "played", "playing"),
            ("make", "makes", "made", "made", "making"),
            ("agree", "agrees", "agreed", "agreed", "agreeing"),
            ("die", "dies", "died", "died", "dying"),
            ("go", "goes", "went", "gone", "going"),
            ("begin", "begins", "began", "begun", "beginning"),
            ("fix", "fixes", "fixed", "fixed", "fixing"),
            ("reach", "reaches", "reached", "reached", "reaching"),
            ("show", "shows", "showed", "shown", "showing"),
            ("sit", "sits", "sat", "sat", "sitting"),
            ("have", "has", "had", "had", "having"),
        ];
        for (base, third, past, participle, ing) in table {
            assert_eq!(inflect(base, Pos::Verb, Form::Base).as_deref(), Some(base));
            assert_eq!(inflect(base, Pos::Verb, Form::ThirdPerson).as_deref(), Some(third), "{base}");
            assert_eq!(inflect(base, Pos::Verb, Form::Past).as_deref(), Some(past), "{base}");
            assert_eq!(inflect(base, Pos::Verb, Form::Participle).as_deref(), Some(participle), "{base}");
            assert_eq!(inflect(base, Pos::Verb, Form::Gerund).as_deref(), Some(ing), "{base}");
        }
        assert_eq!(inflect("sit", Pos::Verb, Form::PastOrParticiple).as_deref(), Some("sat"));
        assert_eq!(inflect("begin", Pos::Verb, Form::PastOrParticiple), None);
    }

    #[test]
    fn adjective_grades() {
        let table = [
            ("fast", Some("faster"), Some("fastest")),
            ("big", Some("bigger"), Some("biggest")),
            ("large", Some("larger"), Some("largest")),
            ("happy", Some("happier"), Some("happiest")),
            ("good", Some("better"), Some("best")),
            ("bad", Some("worse"), Some("worst")),
            ("rapid", None, None),
            ("beautiful", None, None),
        ];
        for (adj, cmp, sup) in table {
            assert_eq!(inflect(adj, Pos::Adj, Form::Comparative).as_deref(), cmp, "{adj}");
            assert_eq!(inflect(adj, Pos::Adj, Form::Superlative).as_deref(), sup, "{adj}");
        }
    }

    #[test]
    fn impossible_forms() {
        assert_eq!(inflect("quickly", Pos::Adv, Form::Comparative), None);
        assert_eq!(inflect("dog", Pos::Noun, Form::Past), None);
        assert_eq!(inflect("Dog", Pos::Noun, Form::Plural), None);
        assert_eq!(inflect("", Pos::Noun, Form::Base), None);
    }

    fn readings(word: &str) -> Vec<(String, Pos, Form)> {
        analyse(word).into_iter().map(|a| (a.entry.lemma.to_owned(), a.pos, a.form)).collect()
    }

    fn has(word: &str, lemma: &str, pos: Pos, form: Form) -> bool {
        readings(word).contains(&(lemma.to_owned(), pos, form))
    }

    #[test]
    fn lemmatises_regular_and_irregular_forms() {
        assert!(has("jumps", "jump", Pos::Verb, Form::ThirdPerson));
        assert!(has("jumps", "jump", Pos::Noun, Form::Plural));
        assert!(has("jumped", "jump", Pos::Verb, Form::PastOrParticiple));
        assert!(has("stopping", "stop", Pos::Verb, Form::Gerund));
        assert!(has("sat", "sit", Pos::Verb, Form::PastOrParticiple));
        assert!(has("began", "begin", Pos::Verb, Form::Past));
        assert!(has("begun", "begin", Pos::Verb, Form::Participle));
        assert!(has("mice", "mouse", Pos::Noun, Form::Plural));
        assert!(has("cities", "city", Pos::Noun, Form::Plural));
        assert!(has("boxes", "box", Pos::Noun, Form::Plural));
        assert!(has("bigger", "big", Pos::Adj, Form::Comparative));
        assert!(has("happiest", "happy", Pos::Adj, Form::Superlative));
        assert!(has("quickly", "quickly", Pos::Adv, Form::Base));
    }

    #[test]
    fn rejects_analyses_that_do_not_reinflect() {
        // "hat" + "ing" would be "hatting".
        assert!(!has("hating", "hat", Pos::Verb, Form::Gerund));
        assert!(has("hating", "hate", Pos::Verb, Form::Gerund));
        // "bu" is not a word, and "news" is not the plural of "new".
        assert!(!readings("news").iter().any(|(l, _, _)| l == "new"));
    }

    #[test]
    fn function_words_have_no_readings() {
        for w in ["the", "does", "is", "can", "will", "over", "i", "a"] {
            assert!(analyse(w).is_empty(), "{w}");
        }
    }

    #[test]
    fn a_regular_past_beside_an_irregular_participle() {
        assert!(analyse("showed").iter().any(|a| a.entry.lemma == "show" && a.form == Form::Past));
        assert!(!analyse("showed").iter().any(|a| a.form == Form::Participle));
    }

    #[test]
    fn irregular_table_is_sorted() {
        for pair in IRREGULAR_VERBS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?}", pair);
        }
    }

    #[test]
    fn syllable_counts() {
        for (w, n) in [("big", 1), ("large", 1), ("happy", 2), ("rapid", 2), ("beautiful", 3), ("simple", 2)]
        {
            assert_eq!(syllables(w), n, "{w}");
        }
    }
}
