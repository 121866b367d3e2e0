//! Connectives that change with the clauses round them: "X, so Y" -> "Y because X", "so strong
//! that X" -> "X because ... so strong", "X, but Y" -> "Although X, Y". Each takes only two
//! clauses and no third that the connective could come to govern.

use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::tokens::Token;
use crate::words::{CLAUSE_WORDS, SUBJECT_PRONOUNS};

/// "X, so Y." -> "Y because X."
pub fn so_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    let follows = p.lower(c + 2);
    if p.lower(c + 1) != "so"
        || ["that", "much", "many", "far", "long", "do", "did", "is"].contains(&follows.as_str())
    {
        return None;
    }
    let (x, y) = (&p.items[..c], &p.items[c + 2..]);
    if x.len() < 2 || y.len() < 2 {
        return None;
    }
    y_because_x(y, x, &p.terminal)
}

/// "The wind was so strong that the tent collapsed." -> "The tent collapsed because the wind
/// was so strong."
pub fn so_that_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let so = p.find("so")?;
    let that = so + 2;
    let other_clause = p
        .items
        .iter()
        .enumerate()
        .any(|(k, t)| k != so && k != that && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()));
    if so < 2 || p.lower(that) != "that" || p.items.len() < that + 3 || other_clause {
        return None;
    }
    let (x, y) = (&p.items[..that], &p.items[that + 1..]);
    y_because_x(y, x, &p.terminal)
}

/// The effect `y` told first, then "because" and the cause `x`: the sentence both "so" rules make.
fn y_because_x(y: &[Token], x: &[Token], terminal: &Token) -> Option<Vec<Token>> {
    let mut out = vec![starting(&y[0])];
    out.extend_from_slice(&y[1..]);
    out.push(shape::word("because"));
    out.push(leaving_start(&x[0])?);
    out.extend_from_slice(&x[1..]);
    Some(shape::build(&out, terminal))
}

/// "It was late, but we stayed." -> "Although it was late, we stayed."
pub fn but_to_although(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    let (x, y) = (&p.items[..c], &p.items[c + 2..]);
    if p.lower(c + 1) != "but"
        || x.len() < 2
        || y.len() < 2
        || !SUBJECT_PRONOUNS.contains(&p.lower(c + 2).as_str())
    {
        return None;
    }
    let mut out = vec![shape::word("Although"), leaving_start(&x[0])?];
    out.extend_from_slice(&x[1..]);
    out.push(comma());
    out.extend_from_slice(y);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn so_becomes_because() {
        assert_eq!(
            run(so_to_because, "It is raining, so we will stay inside.").as_deref(),
            Some("We will stay inside because it is raining.")
        );
        assert_eq!(run(so_to_because, "It was late, so that we left."), None);
        assert_eq!(
            run(so_to_because, "Mary was tired, so we left.").as_deref(),
            Some("We left because Mary was tired.")
        );
    }

    #[test]
    fn so_that_becomes_because() {
        let f = so_that_to_because;
        assert_eq!(
            run(f, "The wind was so strong that the tent collapsed.").as_deref(),
            Some("The tent collapsed because the wind was so strong.")
        );
        assert_eq!(
            run(f, "She laughed so hard that she cried.").as_deref(),
            Some("She cried because she laughed so hard.")
        );
        assert_eq!(run(f, "He left so that we could sleep."), None);
        assert_eq!(run(f, "It was so cold that we stayed in because it snowed."), None);
    }

    #[test]
    fn but_becomes_although() {
        assert_eq!(
            run(but_to_although, "He was tired, but he kept working.").as_deref(),
            Some("Although he was tired, he kept working.")
        );
        assert_eq!(run(but_to_although, "It is cheap, but good."), None);
    }
}
