//! Which of a text's optional rewrite sites a pass applies: all of them (the paraphrase), none,
//! or one alone or all but one (a candidate that differs from the others in one place).

use crate::tokens::Token;

/// A choice among the sites a pass meets, counted in the order it meets them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Which {
    All,
    None,
    /// Only the `k`-th site (from 0).
    Only(usize),
    /// Every site but the `k`-th.
    AllBut(usize),
}

/// The count of sites met so far under one `Which`, across the passes that share it.
#[derive(Debug)]
pub struct Sites {
    which: Which,
    seen: usize,
}

impl Sites {
    pub fn new(which: Which) -> Sites {
        Sites { which, seen: 0 }
    }

    /// How many sites were met.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// Meets one site, the tokens `original`: puts its rewrite (`new`, made only when the site is
    /// taken) or else `original` as it is into `out`. The caller passes over the whole site either
    /// way, so that the next one is counted the same whatever was taken.
    pub fn put(&mut self, out: &mut Vec<Token>, original: &[Token], new: impl FnOnce() -> Vec<Token>) {
        if self.take() {
            out.extend(new());
        } else {
            out.extend_from_slice(original);
        }
    }

    /// The text with each site that `site_at` finds met in turn: at each word, `site_at(i)` gives
    /// the end of a site starting there (exclusive) and its rewrite, made only when the site is
    /// taken; the scan goes on after the whole site either way, and past any other token as it is.
    pub fn scan<F: FnOnce() -> Vec<Token>>(
        &mut self,
        tokens: &[Token],
        mut site_at: impl FnMut(usize) -> Option<(usize, F)>,
    ) -> Vec<Token> {
        let mut out = Vec::with_capacity(tokens.len());
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i].is_word()
                && let Some((end, new)) = site_at(i)
            {
                self.put(&mut out, &tokens[i..end], new);
                i = end;
                continue;
            }
            out.push(tokens[i].clone());
            i += 1;
        }
        out
    }

    /// Meets one more site: whether to rewrite it.
    fn take(&mut self) -> bool {
        let k = self.seen;
        self.seen += 1;
        match self.which {
            Which::All => true,
            Which::None => false,
            Which::Only(j) => j == k,
            Which::AllBut(j) => j != k,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_sites_in_order() {
        let taken = |which| {
            let mut sites = Sites::new(which);
            (0..4).map(|_| sites.take()).collect::<Vec<_>>()
        };
        assert_eq!(taken(Which::All), [true; 4]);
        assert_eq!(taken(Which::None), [false; 4]);
        assert_eq!(taken(Which::Only(2)), [false, false, true, false]);
        assert_eq!(taken(Which::AllBut(0)), [false, true, true, true]);
    }
}
