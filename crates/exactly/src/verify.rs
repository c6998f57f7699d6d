//! An independent checker: does a set of options solve the problem?

use crate::format::escape;
use crate::problem::{ColorId, ItemKind, OptionId, Problem};

/// Why a set of options is not a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// An option id is out of range.
    #[error("option #{0} does not exist")]
    NoSuchOption(usize),
    /// The same option was chosen twice.
    #[error("option #{0} is chosen twice")]
    RepeatedOption(usize),
    /// A primary item is covered fewer or more times than its bounds allow.
    #[error(
        "primary item '{}' is covered {times} times, but must be covered {min}..={max} times",
        escape(item)
    )]
    WrongCoverCount {
        /// The item's name.
        item: String,
        /// How often the chosen options cover it.
        times: u32,
        /// Lower bound.
        min: u32,
        /// Upper bound.
        max: u32,
    },
    /// A secondary item is covered by two options that do not agree on a color.
    #[error("secondary item '{}' is covered by options #{first} and #{second}, which do not share a color", escape(item))]
    ColorClash {
        /// The item's name.
        item: String,
        /// One option.
        first: usize,
        /// Another option that conflicts with it.
        second: usize,
    },
}

/// Checks that `options` cover every primary item within its bounds (exactly
/// once by default) and every secondary item at most once or only by options
/// that agree on its color. Shares no code with the solvers.
///
/// ```
/// use exactly::{verify, OptionId, Problem};
/// let p = Problem::from_names(&["a", "b"], &[], [((), vec!["a"]), ((), vec!["a", "b"])])?;
/// assert!(verify(&p, &[OptionId::new(1)]).is_ok());
/// assert!(verify(&p, &[OptionId::new(0)]).is_err());
/// # Ok::<(), exactly::BuildError>(())
/// ```
pub fn verify<L>(problem: &Problem<L>, options: &[OptionId]) -> Result<(), VerifyError> {
    let n = problem.num_items();
    let mut times = vec![0u32; n];
    // For secondary items: the first option that used it and the color it gave.
    let mut first_use: Vec<Option<(usize, ColorId)>> = vec![None; n];
    let mut chosen = vec![false; problem.num_options()];
    for &opt in options {
        let o = opt.index();
        if o >= problem.num_options() {
            return Err(VerifyError::NoSuchOption(o));
        }
        if std::mem::replace(&mut chosen[o], true) {
            return Err(VerifyError::RepeatedOption(o));
        }
        crate::work::add(problem.option(opt).len() as u64 + 1);
        for e in problem.option(opt) {
            let i = e.item.index();
            times[i] += 1;
            if problem.item_kind(e.item) == ItemKind::Secondary {
                match first_use[i] {
                    None => first_use[i] = Some((o, e.color)),
                    Some((first, color)) => {
                        if color.is_none() || color != e.color {
                            return Err(VerifyError::ColorClash {
                                item: problem.item_name(e.item).to_string(),
                                first,
                                second: o,
                            });
                        }
                    }
                }
            }
        }
    }
    for item in problem.item_ids() {
        if problem.item_kind(item) == ItemKind::Primary {
            let (min, max) = problem.item_bounds(item);
            let t = times[item.index()];
            if t < min || t > max {
                return Err(VerifyError::WrongCoverCount {
                    item: problem.item_name(item).to_string(),
                    times: t,
                    min,
                    max,
                });
            }
        }
    }
    Ok(())
}
