//! The order of the structural rules: the word-order rewrites of one sentence gathered as
//! candidates, safest first, so that the paraphraser uses one of them (one structural change
//! keeps a sentence readable and close in meaning, several at once do not), and the last resorts
//! for a sentence nothing else changed. The rules themselves live in `rules/`; this is the one
//! place that knows their order.

use crate::rules::{
    adverbs, clauses, comparison, connectives, coordination, light_verbs, manner, phrasal, place, possession,
    questions, relative, suggestions, tense, time, voice,
};
use crate::shape::plain;
use crate::tokens::Token;

/// Every word-order rewrite that applies to the sentence, in order of preference: moves that
/// keep every word first, the passive (which adds two) last.
pub fn candidates(tokens: &[Token]) -> Vec<Vec<Token>> {
    let mut out: Vec<Vec<Token>> = Vec::new();
    out.extend(clauses::move_clause(tokens));
    // The comma an opening clause may take: the least change, so the last candidate.
    let comma = clauses::comma_after_opening(tokens);
    let Some(p) = plain(tokens) else {
        out.extend(comma);
        return out;
    };
    for rewrite in [
        connectives::so_to_because,
        connectives::so_that_to_because,
        connectives::but_to_although,
        connectives::because_to_so,
        connectives::because_to_as,
        connectives::before_doing,
        connectives::front_due_to,
        connectives::although_to_but,
        time::front_time_phrase,
        time::front_time_phrase_in_clause,
        time::time_phrase_to_end,
        adverbs::front_frequency_adverb,
        phrasal::please,
        phrasal::by_vehicle,
        phrasal::would_you_mind,
        phrasal::asking_the_price,
        questions::what_time,
        questions::how_much_is,
        questions::what_made,
        questions::how_come,
        questions::would_like,
        questions::have_got,
        questions::where_to_find,
        questions::where_i_can_find,
        questions::how_was,
        questions::how_did_it_go,
        questions::what_was_it_like,
        questions::managed_to,
        questions::going_to_will,
        questions::shall_we,
        questions::borrow_lend,
        questions::opening,
        questions::planning_to,
        questions::plans_for,
        questions::included,
        questions::can_remember,
        questions::last_time,
        questions::available,
        questions::whose,
        questions::called,
        questions::which_what,
        questions::still_work,
        questions::shall_i,
        questions::how_much_cost,
        questions::known_time,
        questions::ever_before,
        questions::favourite,
        questions::able_to,
        questions::enjoy_like,
        questions::good_time_at,
        questions::enjoy_your,
        questions::will_you_be_at,
        questions::will_you_be_coming,
        questions::any_left,
        questions::speak_language,
        questions::spelled,
        questions::watch_see,
        questions::job_of,
        suggestions::shall_we,
        suggestions::how_about,
        comparison::ever_superlative,
        light_verbs::light_verb,
        relative::reduce_relative,
        relative::relative_to_and,
        adverbs::move_manner_adverb,
        adverbs::manner_adverb_before_verb,
        adverbs::manner_adverb_past_phrase,
        adverbs::manner_adverb_before_intransitive,
        adverbs::really_a_lot,
        adverbs::really_very_much,
        adverbs::wait_length_moved,
        voice::existential,
        voice::existential_doing,
        possession::there_is,
        manner::fluent_in,
        place::front_place_phrase,
        place::front_subject_place,
        place::front_stage_phrase,
        coordination::swap_listed_objects,
        coordination::opposite_comparison,
        coordination::invert_comparison,
        coordination::prefer_to_like,
        coordination::picked_out_turned,
        voice::dative,
        voice::dative_back,
        voice::it_takes,
        voice::extraposed,
        voice::feeling_active,
        voice::active,
        voice::someone_did,
        voice::feeling_passive,
        voice::passive,
        phrasal::move_particle,
        phrasal::please_asked,
        // The comma an opening time phrase may take: the least change, so the last.
        time::comma_after_time_phrase,
    ] {
        // Two rules may make the same rewrite ("After lunch we left" is a time phrase and an
        // "after" phrase): one candidate.
        if let Some(rewrite) = rewrite(&p).filter(|r| !out.contains(r)) {
            out.push(rewrite);
        }
    }
    out.extend(comma.filter(|r| !out.contains(r)));
    out
}

/// The rewrite for a sentence that nothing else changed: close in meaning, but a heavier form
/// ("Having fallen...", "was sitting", "has got", "can be found"), so never preferred, and never offered among
/// the candidates. No cleft: careful readers took all 229 they read as awkward or as adding a contrast
/// the sentence did not make ("It was the choir that sang beautifully"), so a sentence that
/// nothing else changes is better left as it is.
pub fn last_resort(tokens: &[Token]) -> Option<Vec<Token>> {
    let p = plain(tokens)?;
    [tense::having_done, tense::posture_progressive, phrasal::have_got, voice::can_be_found]
        .iter()
        .find_map(|rewrite| rewrite(&p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    #[test]
    fn safest_first() {
        let all: Vec<String> = candidates(&tokenize("The boy wrote the letter every morning."))
            .iter()
            .map(|t| join(t))
            .collect();
        // The time phrase moves first; the passive would leave its agent behind the time.
        assert_eq!(all, ["Every morning, the boy wrote the letter."], "{all:?}");
        let all: Vec<String> =
            candidates(&tokenize("The cat knocked a glass off the table.")).iter().map(|t| join(t)).collect();
        assert!(all.contains(&"A glass was knocked off the table by the cat.".to_string()), "{all:?}");
        assert!(candidates(&tokenize("Hello.")).is_empty());
    }

    #[test]
    fn no_cleft_among_the_last_resorts() {
        assert!(last_resort(&tokenize("The museum offers free guided tours.")).is_none());
        assert!(last_resort(&tokenize("Our neighbours are nice.")).is_none());
    }
}
