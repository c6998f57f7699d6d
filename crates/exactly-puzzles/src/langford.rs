//! Langford pairs: arrange two copies of each of `1`…`n` in a row of `2n`
//! so that the two copies of `i` have exactly `i` numbers between them.
//!
//! # Encoding
//!
//! Primary items `d1`…`dn` stand for the numbers and `p1`…`p{2n}` for the
//! positions. The option `d{i} p{j} p{k}` with `k = j + i + 1` puts the two
//! copies of `i` at positions `j` and `k` (1-based).
//!
//! # Symmetry breaking
//!
//! The reversal of a Langford sequence is a Langford sequence, and never the
//! same one: if it were, each pair would sit symmetrically about the middle,
//! so the copies of `i` would be an odd distance `2n + 1 - 2j` apart and every
//! `i` would be even; but `1` is odd. So solutions come in pairs.
//!
//! Reversal maps the placement of `i` at `(j, j + i + 1)` to the one at
//! `(2n - i - j, 2n + 1 - j)`, so it maps first positions `j ↦ 2n - i - j`.
//! For odd `i` no placement is its own mirror image (that would need
//! `2j = 2n - i`), so keeping only the placements with `2j < 2n - i` keeps
//! exactly one sequence of each pair. With `symbreak` this is done for the
//! largest odd `i`, which has the fewest placements to begin with: `n` when
//! `n` is odd (keeping `j ≤ (n - 1) / 2`), `n - 1` when `n` is even (keeping
//! `j ≤ n / 2`).
//!
//! # Example
//!
//! ```
//! use exactly_puzzles::langford::{self, Langford};
//!
//! let problem = langford::encode(&Langford { n: 3, symbreak: false })?;
//! assert_eq!(problem.num_items(), 9);
//! assert_eq!(problem.option_text(exactly::OptionId::new(0)), "d1 p1 p3");
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```

use std::fmt;
use std::io::Write;

use exactly::{ColorId, Problem, ProblemBuilder, Solution};

use crate::Error;

/// A Langford-pairs puzzle: the options of the encoding.
///
/// ```
/// let puzzle = exactly_puzzles::langford::Langford::new(7);
/// assert!(puzzle.symbreak);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Langford {
    /// The largest number (at least 1).
    pub n: usize,
    /// Count each sequence and its reversal once (see the module docs).
    pub symbreak: bool,
}

impl Langford {
    /// The puzzle for `1`…`n` with symmetry breaking on.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::langford::Langford::new(4).n, 4);
    /// ```
    pub fn new(n: usize) -> Langford {
        Langford { n, symbreak: true }
    }
}

/// The label of an option: the two copies of `number` at 1-based positions
/// `first` and `first + number + 1`.
///
/// ```
/// use exactly_puzzles::langford::Pair;
/// let pair = Pair { number: 2, first: 1 };
/// assert_eq!(pair.second(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The number, from 1.
    pub number: usize,
    /// The 1-based position of its first copy.
    pub first: usize,
}

impl Pair {
    /// The 1-based position of the second copy.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::langford::Pair { number: 1, first: 5 }.second(), 7);
    /// ```
    pub fn second(self) -> usize {
        self.first + self.number + 1
    }
}

/// A Langford sequence: `2n` numbers, two copies of each of `1`…`n`.
///
/// ```
/// use exactly_puzzles::langford::Sequence;
/// let s = Sequence::new(vec![2, 3, 1, 2, 1, 3]);
/// assert!(s.is_valid());
/// assert_eq!(s.to_string(), "2 3 1 2 1 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sequence {
    numbers: Vec<usize>,
}

impl Sequence {
    /// Wraps a list of numbers (not checked; see [`Sequence::is_valid`]).
    ///
    /// ```
    /// let s = exactly_puzzles::langford::Sequence::new(vec![1, 1]);
    /// assert!(!s.is_valid());
    /// ```
    pub fn new(numbers: Vec<usize>) -> Sequence {
        Sequence { numbers }
    }

    /// The numbers in order.
    ///
    /// ```
    /// let s = exactly_puzzles::langford::Sequence::new(vec![2, 3, 1, 2, 1, 3]);
    /// assert_eq!(s.numbers()[1], 3);
    /// ```
    pub fn numbers(&self) -> &[usize] {
        &self.numbers
    }

    /// True when each of `1`…`n` occurs exactly twice, with `i` numbers
    /// between the copies of `i`, where `2n` is the length.
    ///
    /// ```
    /// use exactly_puzzles::langford::Sequence;
    /// assert!(Sequence::new(vec![4, 1, 3, 1, 2, 4, 3, 2]).is_valid());
    /// assert!(!Sequence::new(vec![4, 1, 3, 1, 2, 4, 2, 3]).is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        let len = self.numbers.len();
        if len % 2 != 0 {
            return false;
        }
        let n = len / 2;
        let mut first = vec![None; n + 1];
        let mut done = vec![false; n + 1];
        for (pos, &i) in self.numbers.iter().enumerate() {
            if i == 0 || i > n || done[i] {
                return false;
            }
            match first[i] {
                None => first[i] = Some(pos),
                Some(p) if pos == p + i + 1 => done[i] = true,
                Some(_) => return false,
            }
        }
        done[1..].iter().all(|&d| d)
    }
}

impl fmt::Display for Sequence {
    /// The numbers separated by blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, i) in self.numbers.iter().enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{i}")?;
        }
        Ok(())
    }
}

/// The number whose placements `symbreak` restricts: the largest odd one.
fn restricted_number(n: usize) -> usize {
    if n % 2 == 1 {
        n
    } else {
        n - 1
    }
}

/// The largest `n` that [`encode`] accepts: about 1.5 million options and
/// 4.5 million option entries, checked before anything is allocated.
pub const MAX_N: usize = 1000;

/// Encodes the puzzle as an exact-cover problem.
///
/// Fails with [`Error::BadSize`] when `n` is 0 or more than [`MAX_N`].
///
/// ```
/// use exactly_puzzles::langford::{self, Langford};
/// let plain = langford::encode(&Langford { n: 7, symbreak: false })?;
/// let halved = langford::encode(&Langford { n: 7, symbreak: true })?;
/// // The 7 has 6 placements; 3 are kept.
/// assert_eq!(plain.num_options() - halved.num_options(), 3);
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn encode(puzzle: &Langford) -> Result<Problem<Pair>, Error> {
    let n = puzzle.n;
    if n == 0 {
        return Err(Error::BadSize {
            what: "Langford n",
            value: n,
            reason: "must be at least 1",
        });
    }
    if n > MAX_N {
        return Err(Error::BadSize {
            what: "Langford n",
            value: n,
            reason: "must be at most 1000",
        });
    }
    let mut b = ProblemBuilder::new();
    let mut numbers = Vec::with_capacity(n);
    for i in 1..=n {
        numbers.push(b.primary(&format!("d{i}"))?);
    }
    let mut positions = Vec::with_capacity(2 * n);
    for j in 1..=2 * n {
        positions.push(b.primary(&format!("p{j}"))?);
    }
    let restricted = restricted_number(n);
    for number in 1..=n {
        for first in 1..2 * n - number {
            if puzzle.symbreak && number == restricted && 2 * first >= 2 * n - number {
                continue;
            }
            let pair = Pair { number, first };
            let entries = [
                numbers[number - 1],
                positions[first - 1],
                positions[pair.second() - 1],
            ];
            b.add_option(pair, entries.map(|i| (i, ColorId::NONE)))?;
        }
    }
    Ok(b.build()?)
}

/// Decodes a solution of [`encode`]'s problem into the sequence.
///
/// ```
/// use exactly_puzzles::langford::{self, Langford};
/// let problem = langford::encode(&Langford::new(3))?;
/// let solution = exactly::Solver::new(&problem).first().unwrap().unwrap();
/// // Of "2 3 1 2 1 3" and its reversal, symmetry breaking keeps the one
/// // with the 3 on the left.
/// assert_eq!(langford::decode(&problem, &solution).to_string(), "3 1 2 1 3 2");
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn decode(problem: &Problem<Pair>, solution: &Solution) -> Sequence {
    let pairs: Vec<Pair> = solution
        .options()
        .iter()
        .map(|&o| *problem.label(o))
        .collect();
    let len = pairs.iter().map(|p| p.second()).max().unwrap_or(0);
    let mut numbers = vec![0; len];
    for p in pairs {
        numbers[p.first - 1] = p.number;
        numbers[p.second() - 1] = p.number;
    }
    Sequence { numbers }
}

/// Writes the puzzle as a problem in Knuth's DLX text format.
///
/// ```
/// use exactly_puzzles::langford::{self, Langford};
/// let mut text = Vec::new();
/// langford::write_dlx(&Langford { n: 3, symbreak: false }, &mut text)?;
/// assert!(String::from_utf8(text).unwrap().contains("d3 p1 p5"));
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn write_dlx(puzzle: &Langford, out: &mut impl Write) -> Result<(), Error> {
    exactly::format::write_dlx(&encode(puzzle)?, out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(n: usize, symbreak: bool) -> Vec<String> {
        let p = encode(&Langford { n, symbreak }).unwrap();
        p.option_ids().map(|o| p.option_text(o)).collect()
    }

    #[test]
    fn options_follow_the_distance_rule() {
        let all = options(3, false);
        assert_eq!(
            all,
            [
                "d1 p1 p3", "d1 p2 p4", "d1 p3 p5", "d1 p4 p6", "d2 p1 p4", "d2 p2 p5", "d2 p3 p6",
                "d3 p1 p5", "d3 p2 p6",
            ]
        );
        assert_eq!(options(3, true).len(), all.len() - 1);
        assert!(!options(3, true).contains(&"d3 p2 p6".to_string()));
    }

    #[test]
    fn symbreak_keeps_one_of_each_mirror_pair() {
        for n in 1..=12 {
            let d = restricted_number(n);
            assert_eq!(d % 2, 1);
            let all: Vec<usize> = (1..2 * n - d).collect();
            let kept: Vec<usize> = all.iter().copied().filter(|&j| 2 * j < 2 * n - d).collect();
            // Mirroring is a fixed-point-free involution on the placements
            // that swaps kept and dropped ones.
            for &j in &all {
                let mirror = 2 * n - d - j;
                assert_ne!(mirror, j);
                assert!(all.contains(&mirror));
                assert_ne!(kept.contains(&j), kept.contains(&mirror));
            }
            assert_eq!(2 * kept.len(), all.len());
        }
    }

    #[test]
    fn sequence_validity() {
        assert!(Sequence::new(vec![2, 3, 1, 2, 1, 3]).is_valid());
        assert!(!Sequence::new(vec![2, 3, 1, 2, 1]).is_valid());
        assert!(!Sequence::new(vec![2, 3, 1, 2, 3, 1]).is_valid());
        assert!(!Sequence::new(vec![0, 0]).is_valid());
        assert!(!Sequence::new(vec![1, 2, 1, 2]).is_valid());
        assert!(Sequence::new(vec![]).is_valid());
    }

    #[test]
    fn sizes_past_the_limit_are_refused_before_allocating() {
        for n in [MAX_N + 1, 100_000, usize::MAX] {
            let e = encode(&Langford::new(n)).unwrap_err();
            assert!(matches!(e, Error::BadSize { .. }));
            assert!(e.to_string().contains("at most 1000"), "{e}");
        }
        assert!(encode(&Langford::new(MAX_N)).is_ok());
    }

    #[test]
    fn zero_is_rejected() {
        assert!(matches!(
            encode(&Langford::new(0)),
            Err(Error::BadSize { .. })
        ));
    }
}
