//! Plan, result and checkpoint files: the records of a search split into
//! subproblems ([`crate::parallel`]), written and read back with every
//! line checked.
//!
//! # Format
//!
//! All three are line-oriented text. The first line names the kind and
//! version, `#` lines carry the header, and every line after the first ends
//! with a checksum: 16 hex digits of the FNV-1a hash of the line's other
//! fields, keyed by the header, so a line that is cut short, has a digit
//! changed, or comes from another file is found and named by its line.
//!
//! A **plan** (`exactly plan`):
//! ```text
//! # exactly plan 2
//! # input <hash> depth <d> subproblems <K> above <solutions> nodes <nodes> <sum>
//! <index> <estimated nodes> <option>,<option>,... <sum>
//! ```
//! with one line per subproblem, indices `0..K` in order, each prefix
//! exactly `d` options long (written `-` when `d` is 0).
//!
//! A **result** (`exactly count --plan PLAN --shard i/N`):
//! ```text
//! <solutions of the shard>
//! # exactly result 2
//! # plan <plan id> input <hash> depth <d> subproblems <K> above <solutions> nodes <nodes> <sum>
//! # shard <i>/<N> records <m> solutions <total> <sum>
//! <index> <solutions> <nodes> <sum>
//! ```
//! The plan id is the hash of the plan file's text ([`plan_id`]).
//!
//! A **checkpoint** (`exactly count --checkpoint FILE`):
//! ```text
//! # exactly checkpoint 2
//! # input <hash> depth <d> subproblems <K> <sum>
//! <index> <solutions> <nodes> <sum>
//! ```
//! Records are appended as subproblems finish; a last line without its
//! newline (cut short by a kill) is left out when read.
//!
//! [`merge`] adds up results: it checks that they come from one plan and
//! that every subproblem of the plan is counted exactly once. Together with
//! [`crate::parallel::check_split`], which `count --plan` runs before
//! counting, this proves the total is the problem's count.

use std::fmt::Write as _;

use crate::format::{shown, ParseError, ParseErrorKind};
use crate::parallel::Split;
use crate::problem::OptionId;

/// The version written and the only one read.
pub const VERSION: u32 = 2;

/// The longest prefix (in options) a plan line may hold.
pub const MAX_DEPTH: usize = 1 << 16;

/// FNV-1a, 64 bits: a stable hash (the standard library's may change).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The id of a plan: the hash of its file's text, as 16 hex digits. The
/// text is taken as its lines ([`crate::format::lines`]) each ended by
/// `\n`, so a byte-order mark and `\r\n` or `\r` line ends do not change
/// the id.
///
/// ```
/// use exactly::records::plan_id;
/// assert_eq!(plan_id("\u{feff}a\r\nb\r"), plan_id("a\nb\n"));
/// assert_ne!(plan_id("a\nb\n"), plan_id("a\nc\n"));
/// ```
pub fn plan_id(text: &str) -> String {
    let mut canonical = String::with_capacity(text.len());
    for line in crate::format::lines(text) {
        canonical.push_str(line);
        canonical.push('\n');
    }
    if !text.ends_with(['\n', '\r']) && !canonical.is_empty() {
        canonical.pop();
    }
    format!("{:016x}", fnv1a(canonical.as_bytes()))
}

/// A line's checksum under `key` (the header it belongs to).
fn checksum(key: &str, body: &str) -> String {
    let mut bytes = Vec::with_capacity(key.len() + body.len() + 1);
    bytes.extend_from_slice(key.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(body.as_bytes());
    format!("{:016x}", fnv1a(&bytes))
}

/// `body` followed by its checksum under `key`, and a newline.
fn sealed(key: &str, body: &str) -> String {
    format!("{body} {}\n", checksum(key, body))
}

fn syntax(line: usize, column: usize, expected: &str, found: &str) -> ParseError {
    ParseError::new(
        line,
        column,
        ParseErrorKind::Expected {
            expected: expected.to_string().into(),
            found: found.to_string(),
        },
    )
}

fn invalid(line: usize, column: usize, message: String) -> ParseError {
    ParseError::invalid(line, column, message)
}

/// A line split into fields, each with its 1-based column.
struct Fields<'t> {
    line: usize,
    text: &'t str,
    fields: Vec<(usize, &'t str)>,
}

impl<'t> Fields<'t> {
    fn new(line: usize, text: &'t str) -> Self {
        let fields = crate::format::tokens_by(text, |c| c == ' ').collect();
        Fields { line, text, fields }
    }

    /// Checks the shape `expected` (fields separated by single spaces, the
    /// last the checksum under `key`) and returns the fields before it.
    fn sealed(&self, key: &str, count: usize, expected: &str) -> Result<(), ParseError> {
        if self.fields.len() != count + 1 {
            return Err(syntax(self.line, 1, expected, self.text));
        }
        // Single spaces only, so that the checksum covers the line as
        // written and the last field ends the text.
        let t = self.text;
        if t.starts_with(' ') || t.ends_with(' ') || t.contains("  ") {
            return Err(syntax(self.line, 1, expected, t));
        }
        let (column, sum) = self.fields[count];
        let body_end = self.text.len() - sum.len();
        let Some(body) = self.text[..body_end].strip_suffix(' ') else {
            return Err(syntax(self.line, column, expected, self.text));
        };
        if sum.len() != 16 || !sum.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(syntax(self.line, column, "a 16-digit hex checksum", sum));
        }
        if checksum(key, body) != sum {
            return Err(ParseError::new(self.line, column, ParseErrorKind::Checksum));
        }
        Ok(())
    }

    /// Field `k` must be the word `word`.
    fn word(&self, k: usize, word: &str) -> Result<(), ParseError> {
        let (column, f) = self.fields[k];
        if f != word {
            return Err(syntax(self.line, column, &format!("'{word}'"), f));
        }
        Ok(())
    }

    /// Field `k` as a decimal number (digits only).
    fn number<T: std::str::FromStr>(&self, k: usize, what: &str) -> Result<T, ParseError> {
        let (column, f) = self.fields[k];
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax(self.line, column, what, f));
        }
        f.parse().map_err(|_| {
            invalid(
                self.line,
                column,
                format!("{what} '{}' is too large", shown(f)),
            )
        })
    }

    /// Field `k` as a 16-digit hex hash.
    fn hash(&self, k: usize) -> Result<String, ParseError> {
        let (column, f) = self.fields[k];
        if f.len() != 16 || !f.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(syntax(self.line, column, "a 16-digit hex hash", f));
        }
        Ok(f.to_string())
    }

    fn column(&self, k: usize) -> usize {
        self.fields[k].0
    }
}

/// Checks the first line: `# exactly <kind> 2`.
fn first_line(text: Option<&str>, kind: &str) -> Result<(), ParseError> {
    let expected = format!("# exactly {kind} {VERSION}");
    let line = text.unwrap_or("");
    if line == expected {
        return Ok(());
    }
    if let Some(v) = line.strip_prefix(&format!("# exactly {kind} ")) {
        return Err(invalid(
            1,
            12 + kind.len(),
            format!(
                "this {kind} file has version {}; this exactly reads version {VERSION} only (make it again)",
                shown(v)
            ),
        ));
    }
    Err(syntax(1, 1, &format!("'{expected}'"), line))
}

/// The lines of `text` ([`crate::format::lines`]: a byte-order mark is
/// skipped, lines end at `\n`, `\r\n` or `\r`) with their 1-based numbers,
/// and whether the last one ends with a line end.
fn numbered(text: &str) -> (Vec<(usize, &str)>, bool) {
    let complete = text.is_empty() || text.ends_with(['\n', '\r']);
    let lines = crate::format::lines(text)
        .enumerate()
        .map(|(k, l)| (k + 1, l))
        .collect();
    (lines, complete)
}

/// A plan: the problem's hash, its split, and each subproblem's estimated
/// size.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The hash of the problem the plan was made for (16 hex digits).
    pub input: String,
    /// The tree cut.
    pub split: Split,
    /// Estimated nodes per subproblem (finite, not negative).
    pub estimates: Vec<f64>,
}

fn plan_key(input: &str, split: &Split) -> String {
    plan_key_of(
        input,
        split.depth,
        split.subproblems.len(),
        split.solutions,
        split.nodes,
    )
}

fn plan_key_of(input: &str, depth: usize, k: usize, above: u128, nodes: u64) -> String {
    format!("# input {input} depth {depth} subproblems {k} above {above} nodes {nodes}")
}

/// Writes `plan` in the plan format.
///
/// ```
/// let p = exactly::format::parse_dlx("a b\na\nb\na b\n")?;
/// let split = exactly::parallel::split(&p, exactly::Engine::Auto, 2, 8);
/// let plan = exactly::records::Plan {
///     input: "0123456789abcdef".into(),
///     estimates: vec![1.0; split.subproblems.len()],
///     split,
/// };
/// let text = exactly::records::write_plan(&plan);
/// assert_eq!(exactly::records::parse_plan(&text)?, plan);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_plan(plan: &Plan) -> String {
    let key = plan_key(&plan.input, &plan.split);
    let mut out = format!("# exactly plan {VERSION}\n");
    out.push_str(&sealed(&key, &key));
    for (i, prefix) in plan.split.subproblems.iter().enumerate() {
        let mut body = String::new();
        // An estimate past the floats (a huge tree) is written as the largest.
        let estimate = plan
            .estimates
            .get(i)
            .copied()
            .filter(|e| *e >= 0.0)
            .map_or(0.0, |e| e.min(f64::MAX));
        let _ = write!(body, "{i} {estimate:.0} ");
        if prefix.is_empty() {
            body.push('-');
        }
        for (k, o) in prefix.iter().enumerate() {
            if k > 0 {
                body.push(',');
            }
            let _ = write!(body, "{}", o.index());
        }
        out.push_str(&sealed(&key, &body));
    }
    out
}

/// Reads a plan, checking every line.
pub fn parse_plan(text: &str) -> Result<Plan, ParseError> {
    let (lines, complete) = numbered(text);
    let mut it = lines.into_iter();
    first_line(it.next().map(|(_, l)| l), "plan")?;
    let (n, header) = it.next().unwrap_or((2, ""));
    let shape = "'# input <hash> depth <d> subproblems <K> above <n> nodes <n> <checksum>'";
    let h = Fields::new(n, header);
    if h.fields.len() != 12 {
        return Err(syntax(n, 1, shape, header));
    }
    for (k, w) in [
        (0, "#"),
        (1, "input"),
        (3, "depth"),
        (5, "subproblems"),
        (7, "above"),
        (9, "nodes"),
    ] {
        h.word(k, w)?;
    }
    let input = h.hash(2)?;
    let depth: usize = h.number(4, "a depth")?;
    let k: usize = h.number(6, "a number of subproblems")?;
    let above: u128 = h.number(8, "a number of solutions")?;
    let nodes: u64 = h.number(10, "a number of nodes")?;
    let key = plan_key_of(&input, depth, k, above, nodes);
    h.sealed(&key, 11, shape)?;
    if depth > MAX_DEPTH {
        return Err(invalid(
            n,
            h.column(4),
            format!("depth {depth} is past the limit of {MAX_DEPTH}"),
        ));
    }
    let mut split = Split {
        depth,
        subproblems: Vec::new(),
        solutions: above,
        nodes,
        // A plan does not record them.
        updates: 0,
        ..Split::default()
    };
    let mut estimates = Vec::new();
    let record = "'<index> <estimate> <options> <checksum>'";
    let mut last = n;
    for (n, line) in it {
        last = n;
        let f = Fields::new(n, line);
        f.sealed(&key, 3, record)?;
        let index: usize = f.number(0, "a subproblem number")?;
        if index != split.subproblems.len() {
            return Err(invalid(
                n,
                1,
                format!(
                    "expected subproblem {}, found {index}",
                    split.subproblems.len()
                ),
            ));
        }
        if index >= k {
            return Err(invalid(
                n,
                1,
                format!("subproblem {index} is past the {k} the header announces"),
            ));
        }
        let (column, e) = f.fields[1];
        let estimate: f64 = e
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0 && e.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| syntax(n, column, "an estimate (a whole number)", e))?;
        let (column, o) = f.fields[2];
        let mut prefix = Vec::new();
        if o != "-" {
            let mut at = column;
            for part in o.split(',') {
                if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(syntax(n, at, "an option number", part));
                }
                let option: u32 = part.parse().map_err(|_| {
                    invalid(
                        n,
                        at,
                        format!("option {} is past the largest, {}", shown(part), u32::MAX),
                    )
                })?;
                if prefix.len() == depth {
                    return Err(invalid(
                        n,
                        at,
                        format!("the prefix is longer than the depth, {depth}"),
                    ));
                }
                prefix.push(OptionId::new(option as usize));
                at += part.len() + 1;
            }
        }
        if prefix.len() != depth {
            return Err(invalid(
                n,
                column,
                format!(
                    "the prefix has {} options, the depth is {depth}",
                    prefix.len()
                ),
            ));
        }
        estimates.push(estimate);
        split.subproblems.push(prefix);
    }
    if !complete {
        return Err(invalid(
            last,
            1,
            "the last line has no newline: the file was cut short".into(),
        ));
    }
    if split.subproblems.len() != k {
        return Err(invalid(
            last + 1,
            1,
            format!(
                "the header announces {k} subproblems, the plan lists {}",
                split.subproblems.len()
            ),
        ));
    }
    Ok(Plan {
        input,
        split,
        estimates,
    })
}

/// One finished subproblem: its count and the nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    /// Its index in the split.
    pub index: usize,
    /// Solutions in it.
    pub solutions: u128,
    /// Nodes it took.
    pub nodes: u64,
}

fn record_body(r: &Record) -> String {
    format!("{} {} {}", r.index, r.solutions, r.nodes)
}

fn parse_record(f: &Fields<'_>, key: &str) -> Result<Record, ParseError> {
    f.sealed(key, 3, "'<index> <solutions> <nodes> <checksum>'")?;
    Ok(Record {
        index: f.number(0, "a subproblem number")?,
        solutions: f.number(1, "a number of solutions")?,
        nodes: f.number(2, "a number of nodes")?,
    })
}

/// What a result says about its plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanHeader {
    /// The plan's id ([`plan_id`]).
    pub id: String,
    /// The problem's hash.
    pub input: String,
    /// The cut's depth.
    pub depth: usize,
    /// Subproblems in the plan.
    pub subproblems: usize,
    /// Solutions above the cut.
    pub above: u128,
    /// Nodes above the cut.
    pub nodes: u64,
}

impl PlanHeader {
    /// The header of the plan with id `id`.
    pub fn of(id: &str, plan: &Plan) -> Self {
        PlanHeader {
            id: id.to_string(),
            input: plan.input.clone(),
            depth: plan.split.depth,
            subproblems: plan.split.subproblems.len(),
            above: plan.split.solutions,
            nodes: plan.split.nodes,
        }
    }

    fn key(&self) -> String {
        format!(
            "# plan {} input {} depth {} subproblems {} above {} nodes {}",
            self.id, self.input, self.depth, self.subproblems, self.above, self.nodes
        )
    }
}

/// One shard's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardResult {
    /// The plan it counts.
    pub plan: PlanHeader,
    /// `(i, N)`: shard `i` of `N`.
    pub shard: (usize, usize),
    /// The subproblems counted, by index.
    pub records: Vec<Record>,
}

impl ShardResult {
    /// The shard's count: the sum of its records, or `None` past `u128`.
    pub fn total(&self) -> Option<u128> {
        self.records
            .iter()
            .try_fold(0u128, |t, r| t.checked_add(r.solutions))
    }
}

/// Writes a result (the shard's count first). `None` when the count is
/// past `u128` (it cannot be: no search finds that many).
pub fn write_result(result: &ShardResult) -> Option<String> {
    let total = result.total()?;
    let key = result.plan.key();
    let mut out = format!("{total}\n# exactly result {VERSION}\n");
    out.push_str(&sealed(&key, &key));
    let (i, n) = result.shard;
    out.push_str(&sealed(
        &key,
        &format!(
            "# shard {i}/{n} records {} solutions {total}",
            result.records.len()
        ),
    ));
    for r in &result.records {
        out.push_str(&sealed(&key, &record_body(r)));
    }
    Some(out)
}

/// Reads a result, checking every line, the shard's count and its number
/// of records.
pub fn parse_result(text: &str) -> Result<ShardResult, ParseError> {
    let (lines, complete) = numbered(text);
    let mut it = lines.into_iter();
    let (_, first) = it.next().unwrap_or((1, ""));
    let count = Fields::new(1, first);
    if count.fields.len() != 1 {
        return Err(syntax(1, 1, "the shard's count", first));
    }
    let total: u128 = count.number(0, "the shard's count")?;
    first_line(it.next().map(|(_, l)| l), "result").map_err(|e| ParseError { line: 2, ..e })?;
    let (n, line) = it.next().unwrap_or((3, ""));
    let shape =
        "'# plan <id> input <hash> depth <d> subproblems <K> above <n> nodes <n> <checksum>'";
    let h = Fields::new(n, line);
    if h.fields.len() != 14 {
        return Err(syntax(n, 1, shape, line));
    }
    for (k, w) in [
        (0, "#"),
        (1, "plan"),
        (3, "input"),
        (5, "depth"),
        (7, "subproblems"),
        (9, "above"),
        (11, "nodes"),
    ] {
        h.word(k, w)?;
    }
    let plan = PlanHeader {
        id: h.hash(2)?,
        input: h.hash(4)?,
        depth: h.number(6, "a depth")?,
        subproblems: h.number(8, "a number of subproblems")?,
        above: h.number(10, "a number of solutions")?,
        nodes: h.number(12, "a number of nodes")?,
    };
    let key = plan.key();
    h.sealed(&key, 13, shape)?;
    let (n, line) = it.next().unwrap_or((4, ""));
    let shape = "'# shard <i>/<N> records <m> solutions <n> <checksum>'";
    let s = Fields::new(n, line);
    if s.fields.len() != 8 {
        return Err(syntax(n, 1, shape, line));
    }
    s.sealed(&key, 7, shape)?;
    for (k, w) in [(0, "#"), (1, "shard"), (3, "records"), (5, "solutions")] {
        s.word(k, w)?;
    }
    let (column, field) = s.fields[2];
    let shard = field
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        .filter(|&(i, n)| i < n)
        .ok_or_else(|| syntax(s.line, column, "a shard i/N with i < N", field))?;
    let m: usize = s.number(4, "a number of records")?;
    let listed: u128 = s.number(6, "a number of solutions")?;
    if listed != total {
        return Err(invalid(
            1,
            1,
            format!("the shard's count {total} differs from the {listed} its header records"),
        ));
    }
    let mut records: Vec<Record> = Vec::new();
    let mut last = n;
    for (n, line) in it {
        last = n;
        let r = parse_record(&Fields::new(n, line), &key)?;
        if r.index >= plan.subproblems {
            return Err(invalid(
                n,
                1,
                format!(
                    "subproblem {} does not exist (the plan has {})",
                    r.index, plan.subproblems
                ),
            ));
        }
        if records.last().is_some_and(|p| p.index >= r.index) {
            return Err(invalid(
                n,
                1,
                format!("subproblem {} is out of order or repeated", r.index),
            ));
        }
        records.push(r);
    }
    if !complete {
        return Err(invalid(
            last,
            1,
            "the last line has no newline: the file was cut short".into(),
        ));
    }
    if records.len() != m {
        return Err(invalid(
            last + 1,
            1,
            format!(
                "the header announces {m} records, the file lists {}",
                records.len()
            ),
        ));
    }
    let result = ShardResult {
        plan,
        shard,
        records,
    };
    match result.total() {
        Some(sum) if sum == total => Ok(result),
        Some(sum) => Err(invalid(
            1,
            1,
            format!("the shard's count {total} differs from the sum of its records, {sum}"),
        )),
        None => Err(invalid(1, 1, "the sum of the records is past 2^128".into())),
    }
}

/// Why results do not add up to a count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// No result was given.
    #[error("no result files given")]
    Empty,
    /// Result `file` counts another plan than result `first`.
    #[error("comes from another plan than the first result")]
    OtherPlan {
        /// Index of the result, among those given.
        file: usize,
    },
    /// Two results name the same shard.
    #[error("shard {shard} is given twice")]
    ShardTwice {
        /// The shard, `i/N`.
        shard: String,
        /// Index of the second result.
        file: usize,
    },
    /// Two results name another number of shards.
    #[error("is a shard of {found}, the first result of {expected}")]
    ShardCount {
        /// Shards the first result names.
        expected: usize,
        /// Shards this one names.
        found: usize,
        /// Index of the result.
        file: usize,
    },
    /// A subproblem is counted twice.
    #[error("subproblem {index} is counted twice")]
    Twice {
        /// The subproblem.
        index: usize,
        /// Indices of the two results.
        files: (usize, usize),
    },
    /// Subproblems are counted by no result.
    #[error("subproblem {first} is missing from the results{}", if *.more > 0 { format!(" (and {} more)", .more) } else { String::new() })]
    Missing {
        /// The first one missing.
        first: usize,
        /// How many more are missing.
        more: usize,
    },
    /// A record names a subproblem past the plan's.
    #[error("subproblem {index} does not exist in the plan")]
    NoSuchSubproblem {
        /// The subproblem.
        index: usize,
        /// Index of the result.
        file: usize,
    },
    /// The total is past `u128`.
    #[error("the total is past 2^128")]
    Overflow,
}

/// Adds up the results of one plan: checks that they count the same plan,
/// name each shard once, and count every subproblem of the plan exactly
/// once. Returns the problem's count (the subproblems' and the solutions
/// above the cut).
pub fn merge(results: &[ShardResult]) -> Result<u128, MergeError> {
    let first = results.first().ok_or(MergeError::Empty)?;
    let mut shards = std::collections::BTreeMap::new();
    for (file, r) in results.iter().enumerate() {
        if r.plan != first.plan {
            return Err(MergeError::OtherPlan { file });
        }
        if r.shard.1 != first.shard.1 {
            return Err(MergeError::ShardCount {
                expected: first.shard.1,
                found: r.shard.1,
                file,
            });
        }
        if shards.insert(r.shard.0, file).is_some() {
            return Err(MergeError::ShardTwice {
                shard: format!("{}/{}", r.shard.0, r.shard.1),
                file,
            });
        }
    }
    let k = first.plan.subproblems;
    // Who counted each subproblem, by index; `usize::MAX` for nobody. Each
    // record names an index below `k` (checked when read), so fewer records
    // than `k` leave some subproblem missing: refuse before allocating.
    let given: usize = results.iter().map(|r| r.records.len()).sum();
    if k > given {
        let counted: std::collections::BTreeSet<usize> = results
            .iter()
            .flat_map(|r| r.records.iter().map(|x| x.index))
            .filter(|&i| i < k)
            .collect();
        let missing = (0..k).find(|i| !counted.contains(i)).unwrap_or(0);
        return Err(MergeError::Missing {
            first: missing,
            more: k - counted.len() - 1,
        });
    }
    let mut by = vec![usize::MAX; k];
    let mut total = first.plan.above;
    for (file, r) in results.iter().enumerate() {
        for x in &r.records {
            let Some(slot) = by.get_mut(x.index) else {
                return Err(MergeError::NoSuchSubproblem {
                    index: x.index,
                    file,
                });
            };
            if *slot != usize::MAX {
                return Err(MergeError::Twice {
                    index: x.index,
                    files: (*slot, file),
                });
            }
            *slot = file;
            total = total.checked_add(x.solutions).ok_or(MergeError::Overflow)?;
        }
    }
    if let Some(missing) = by.iter().position(|&f| f == usize::MAX) {
        let more = by.iter().filter(|&&f| f == usize::MAX).count() - 1;
        return Err(MergeError::Missing {
            first: missing,
            more,
        });
    }
    Ok(total)
}

/// A checkpoint's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointHeader {
    /// The problem's hash.
    pub input: String,
    /// The depth of the cut.
    pub depth: usize,
    /// Subproblems of the cut.
    pub subproblems: usize,
}

impl CheckpointHeader {
    fn key(&self) -> String {
        format!(
            "# input {} depth {} subproblems {}",
            self.input, self.depth, self.subproblems
        )
    }

    /// The checkpoint's first two lines.
    pub fn write(&self) -> String {
        let key = self.key();
        format!("# exactly checkpoint {VERSION}\n{}", sealed(&key, &key))
    }

    /// One record line.
    pub fn record(&self, r: &Record) -> String {
        sealed(&self.key(), &record_body(r))
    }
}

/// A checkpoint read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Its header.
    pub header: CheckpointHeader,
    /// The subproblems finished, in the order written.
    pub records: Vec<Record>,
    /// Whether the last line was cut short (no newline) and left out.
    pub torn: bool,
}

/// Reads the header of a checkpoint only (its first two lines).
pub fn parse_checkpoint_header(text: &str) -> Result<CheckpointHeader, ParseError> {
    let mut lines = crate::format::lines(text);
    first_line(lines.next(), "checkpoint")?;
    let line = lines.next().unwrap_or("");
    let shape = "'# input <hash> depth <d> subproblems <K> <checksum>'";
    let h = Fields::new(2, line);
    if h.fields.len() != 8 {
        return Err(syntax(2, 1, shape, line));
    }
    for (k, w) in [(0, "#"), (1, "input"), (3, "depth"), (5, "subproblems")] {
        h.word(k, w)?;
    }
    let header = CheckpointHeader {
        input: h.hash(2)?,
        depth: h.number(4, "a depth")?,
        subproblems: h.number(6, "a number of subproblems")?,
    };
    h.sealed(&header.key(), 7, shape)?;
    if header.depth > MAX_DEPTH {
        return Err(invalid(
            2,
            h.column(4),
            format!("depth {} is past the limit of {MAX_DEPTH}", header.depth),
        ));
    }
    Ok(header)
}

/// Reads a checkpoint, checking every line; a last line without its
/// newline is left out (the run that wrote it was killed mid-line).
pub fn parse_checkpoint(text: &str) -> Result<Checkpoint, ParseError> {
    let header = parse_checkpoint_header(text)?;
    let key = header.key();
    let (lines, complete) = numbered(text);
    let mut records = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let body = &lines[2.min(lines.len())..];
    for (k, &(n, line)) in body.iter().enumerate() {
        if k + 1 == body.len() && !complete {
            break;
        }
        let r = parse_record(&Fields::new(n, line), &key)?;
        if r.index >= header.subproblems {
            return Err(invalid(
                n,
                1,
                format!(
                    "subproblem {} does not exist (the split has {})",
                    r.index, header.subproblems
                ),
            ));
        }
        if !seen.insert(r.index) {
            return Err(invalid(
                n,
                1,
                format!("subproblem {} is recorded twice", r.index),
            ));
        }
        records.push(r);
    }
    Ok(Checkpoint {
        header,
        records,
        torn: !complete && !body.is_empty(),
    })
}
