//! Trace events as text: every step of the search, indented by level, so
//! that a small instance can be followed by hand (what `exactly solve
//! --trace` prints, and what the web page shows beside the matrix).
//!
//! ```text
//! choose a (2 options); cover a
//! try 1 of 2: a d g; cover d g
//!   choose b (1 option); cover b
//!   try 1 of 1: b c f; cover c f
//!     choose e (0 options); cover e
//!     backtrack: uncover e
//!   backtrack: uncover b
//! ```
//!
//! `choose` names the item with the fewest options left and covers it;
//! `try k of d` shows the option tried (its input line) and covers its other
//! items (or purifies them, for colored secondary items); `solution` lists
//! the options chosen; `backtrack` undoes the level when its item has no
//! options left to try.
//!
//! With [`Tracer::nodes`] (and [`Solver::trace_nodes`](crate::Solver::trace_nodes)),
//! each step is followed by the links the dancing links changed in it, one
//! line each, one level deeper: `unlink item a` when item `a`'s header
//! leaves the list of items, `unlink option #3 (a d g) from d` when option
//! 3's node (0-based, in input order) leaves item `d`'s list, and `relink`
//! lines when they come back.

use crate::{ItemId, OptionId, Problem, TraceEvent};

/// Turns trace events into lines of text.
///
/// ```
/// let problem = exactly::format::parse_dlx("a b\na b\n")?;
/// let mut tracer = exactly::trace::Tracer::new(&problem);
/// let mut lines = Vec::new();
/// exactly::Solver::new(&problem)
///     .on_trace(move |e| lines.extend(tracer.line(e)))
///     .count();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tracer<'p> {
    problem: &'p Problem<String>,
    /// The item chosen at each level.
    items: Vec<ItemId>,
    /// The option tried at each level.
    options: Vec<OptionId>,
    solutions: u128,
    /// Whether node changes get lines.
    nodes: bool,
    /// The level of the last step.
    level: u32,
}

impl<'p> Tracer<'p> {
    /// A tracer for searches of `problem`.
    pub fn new(problem: &'p Problem<String>) -> Self {
        Tracer {
            problem,
            items: Vec::new(),
            options: Vec::new(),
            solutions: 0,
            nodes: false,
            level: 0,
        }
    }

    /// Gives each node change its own line ([`TraceEvent::Unlink`],
    /// [`TraceEvent::Relink`]); without it they have none.
    ///
    /// ```
    /// let problem = exactly::format::parse_dlx("a b\na b\nb\n")?;
    /// let mut tracer = exactly::trace::Tracer::new(&problem).nodes(true);
    /// let mut lines = Vec::new();
    /// exactly::Solver::new(&problem)
    ///     .trace_nodes(true)
    ///     .on_trace(|e| lines.extend(tracer.line(e)))
    ///     .count();
    /// assert_eq!(lines[1], "  unlink item a");
    /// assert_eq!(lines[2], "  unlink option #0 (a b) from b");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nodes(mut self, on: bool) -> Self {
        self.nodes = on;
        self
    }

    /// The line for one event, indented by its level (`None` for events this
    /// tracer does not know).
    pub fn line(&mut self, event: &TraceEvent) -> Option<String> {
        let (level, text) = self.text(event)?;
        Some(format!("{}{text}", "  ".repeat(level as usize)))
    }

    /// The level and the text of one event's line, without indentation.
    pub fn text(&mut self, event: &TraceEvent) -> Option<(u32, String)> {
        let p = self.problem;
        let (level, text) = match *event {
            TraceEvent::Unlink { item, option } | TraceEvent::Relink { item, option } => {
                if !self.nodes {
                    return None;
                }
                let verb = if matches!(event, TraceEvent::Unlink { .. }) {
                    "unlink"
                } else {
                    "relink"
                };
                let name = p.item_name(item);
                let text = match option {
                    None => format!("{verb} item {name}"),
                    Some(o) => format!("{verb} option #{} ({}) from {name}", o.index(), p.label(o)),
                };
                (self.level + 1, text)
            }
            TraceEvent::Choose {
                level,
                item,
                options,
            } => {
                set(&mut self.items, level, item);
                let name = p.item_name(item);
                let plural = if options == 1 { "" } else { "s" };
                (
                    level,
                    format!("choose {name} ({options} option{plural}); cover {name}"),
                )
            }
            TraceEvent::Try {
                level,
                option,
                k,
                d,
            } => {
                set(&mut self.options, level, option);
                let chosen = self.items.get(level as usize).copied();
                let mut cover = Vec::new();
                let mut purify = Vec::new();
                for e in p.option(option) {
                    if Some(e.item) == chosen {
                        continue;
                    }
                    if e.color.is_none() {
                        cover.push(p.item_name(e.item).to_string());
                    } else {
                        purify.push(format!("{}:{}", p.item_name(e.item), p.color_name(e.color)));
                    }
                }
                let mut text = format!("try {k} of {d}: {}", p.label(option));
                if !cover.is_empty() {
                    text.push_str("; cover ");
                    text.push_str(&cover.join(" "));
                }
                if !purify.is_empty() {
                    text.push_str("; purify ");
                    text.push_str(&purify.join(" "));
                }
                (level, text)
            }
            TraceEvent::Solution { level } => {
                self.solutions += 1;
                let chosen: Vec<&str> = self
                    .options
                    .iter()
                    .take(level as usize)
                    .map(|&o| p.label(o).as_str())
                    .collect();
                (
                    level,
                    format!("solution {}: {}", self.solutions, chosen.join("; ")),
                )
            }
            TraceEvent::Backtrack { level } => {
                let text = match self.items.get(level as usize) {
                    Some(&item) => format!("backtrack: uncover {}", p.item_name(item)),
                    None => "backtrack".to_string(),
                };
                (level, text)
            }
        };
        if !matches!(event, TraceEvent::Unlink { .. } | TraceEvent::Relink { .. }) {
            self.level = level;
        }
        // Names and labels come from the input: never raw control characters.
        Some((level, crate::format::escape(&text).to_string()))
    }
}

/// Sets `v[level] = x`, forgetting deeper levels.
fn set<T>(v: &mut Vec<T>, level: u32, x: T) {
    v.truncate(level as usize);
    v.push(x);
}
