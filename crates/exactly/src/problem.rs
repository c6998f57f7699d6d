//! The problem model: items, colors and options, built and validated by
//! [`ProblemBuilder`] into an immutable [`Problem`].

use crate::format::escape;
use hashbrown::HashTable;
use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasher;

/// Index of an item in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemId(pub(crate) u32);

impl ItemId {
    /// The 0-based position of the item in declaration order.
    ///
    /// ```
    /// let mut b = exactly::ProblemBuilder::<()>::new();
    /// assert_eq!(b.primary("a").unwrap().index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of an option in the built problem (options without a primary item are
/// dropped, so this may differ from the order of `add_option` calls).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OptionId(pub(crate) u32);

impl OptionId {
    /// The 0-based position of the option in the built problem.
    ///
    /// ```
    /// let p = exactly::Problem::<()>::from_names(&["a"], &[], [((), vec!["a"])]).unwrap();
    /// assert_eq!(p.option_ids().next().unwrap().index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The option with 0-based position `index`.
    ///
    /// ```
    /// assert_eq!(exactly::OptionId::new(3).index(), 3);
    /// ```
    pub fn new(index: usize) -> OptionId {
        OptionId(u32::try_from(index).expect("option index fits in u32"))
    }
}

/// A color of a secondary item. `ColorId::NONE` means "no color".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ColorId(pub(crate) u32);

impl ColorId {
    /// The absence of a color.
    pub const NONE: ColorId = ColorId(0);

    /// True for [`ColorId::NONE`].
    ///
    /// ```
    /// assert!(exactly::ColorId::NONE.is_none());
    /// ```
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Whether an item must be covered (primary) or may be covered (secondary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// Covered exactly once (or within its multiplicity bounds).
    Primary,
    /// Covered at most once, or by any number of options that agree on its color.
    Secondary,
}

/// One entry of an option: an item and, for secondary items, an optional color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item.
    pub item: ItemId,
    /// Its color in this option, or [`ColorId::NONE`].
    pub color: ColorId,
}

#[derive(Clone, Debug)]
struct ItemInfo {
    kind: ItemKind,
    /// Multiplicity bounds `(min, max)`; `(1, 1)` for plain primary items and
    /// `(0, 1)` for secondary items.
    bounds: (u32, u32),
    /// How many options hold the item.
    options: u32,
}

/// Item names, end to end in one string.
/// PERF: one allocation for all names instead of one per item.
#[derive(Clone, Debug, Default)]
struct Names {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
}

impl Names {
    fn push(&mut self, name: &str) -> Result<(), BuildError> {
        let end = u32::try_from(self.text.len() + name.len()).map_err(|_| BuildError::TooLarge)?;
        self.text.push_str(name);
        self.ends.push(end);
        Ok(())
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }
}

/// A non-fatal remark produced while building: the problem is still usable.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// The option given by the `position`-th call to `add_option` (0-based) had
    /// no primary item and was dropped, as Knuth's programs do.
    OptionWithoutPrimary {
        /// 0-based position among the options that were added.
        position: usize,
        /// The 1-based line and column where the option starts, when a
        /// reader of [`crate::format`] made the problem from a text; `None`
        /// from a [`ProblemBuilder`].
        at: Option<(usize, usize)>,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::OptionWithoutPrimary { position, .. } => {
                write!(f, "option {} has no primary item; dropped", position + 1)
            }
        }
    }
}

/// Why a problem could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two items have the same name.
    #[error("duplicate item name '{}'", escape(.0))]
    DuplicateItem(String),
    /// An item name is empty or contains a blank, `:` or `|`.
    #[error(
        "bad item name '{}': names are non-empty runs of non-blank characters without ':' or '|'",
        escape(.0)
    )]
    BadItemName(String),
    /// A color name is empty or contains a blank, `:` or `|`.
    #[error("bad color name '{}'", escape(.0))]
    BadColorName(String),
    /// An option names an item that was not declared.
    #[error("unknown item '{}'", escape(.0))]
    UnknownItem(String),
    /// An option lists the same item twice.
    #[error("item '{}' appears twice in one option", escape(.0))]
    RepeatedItem(String),
    /// A color was given to a primary item.
    #[error("primary item '{}' cannot have a color", escape(.0))]
    ColorOnPrimary(String),
    /// The problem declares no items at all.
    #[error("the problem has no items")]
    NoItems,
    /// Multiplicity bounds with `min > max` or `max == 0`.
    #[error(
        "bad multiplicity bounds {min}:{max} for item '{}': need 0 <= min <= max and max >= 1",
        escape(name)
    )]
    BadBounds {
        /// The item's name.
        name: String,
        /// The lower bound given.
        min: u32,
        /// The upper bound given.
        max: u32,
    },
    /// More items, options or entries than 32-bit indices can address
    /// (items, entries and options together up to about 2^32, options
    /// and colors each below 2^31).
    #[error("the problem is too large for 32-bit indices")]
    TooLarge,
}

/// Whether a problem of `items`, `entries` and `options` fits the 32-bit
/// positions every search keeps: dancing links lay out one node per item,
/// per entry and per option (its spacer) and two more, and number options
/// in an `i32`; Algorithm M's lists hold an entry per item and per entry.
/// The builder refuses ([`BuildError::TooLarge`]) an item or option that
/// would go past it.
fn fits_indices(items: usize, entries: usize, options: usize) -> bool {
    let total = (items as u64)
        .saturating_add(entries as u64)
        .saturating_add(options as u64)
        .saturating_add(2);
    total <= u64::from(u32::MAX) && options <= i32::MAX as usize
}

/// An exact-cover problem with secondary items, colors, multiplicities and
/// option costs. Immutable once built; solvers keep their own state, so one
/// problem can be solved by many threads at once.
///
/// `L` is the label type: whatever each option means to the caller.
#[derive(Clone, Debug)]
pub struct Problem<L = String> {
    items: Vec<ItemInfo>,
    names: Names,
    colors: Vec<String>,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    labels: Vec<L>,
    costs: Vec<u64>,
    warnings: Vec<Warning>,
}

impl<L> Problem<L> {
    /// Number of items, primary and secondary.
    pub fn num_items(&self) -> usize {
        self.items.len()
    }

    /// Number of primary items.
    pub fn num_primary(&self) -> usize {
        self.items
            .iter()
            .filter(|i| i.kind == ItemKind::Primary)
            .count()
    }

    /// Number of options.
    pub fn num_options(&self) -> usize {
        self.labels.len()
    }

    /// Total number of entries over all options.
    pub fn num_entries(&self) -> usize {
        self.entries.len()
    }

    /// All item ids in declaration order.
    pub fn item_ids(&self) -> impl ExactSizeIterator<Item = ItemId> + '_ {
        (0..self.items.len() as u32).map(ItemId)
    }

    /// The items, primary ones first, each kind in declaration order: the
    /// order in which the engines lay out their item tables.
    pub(crate) fn items_primary_first(&self) -> impl Iterator<Item = ItemId> + '_ {
        let of = move |kind| {
            self.item_ids()
                .filter(move |&id| self.item_kind(id) == kind)
        };
        of(ItemKind::Primary).chain(of(ItemKind::Secondary))
    }

    /// All option ids.
    pub fn option_ids(&self) -> impl ExactSizeIterator<Item = OptionId> + '_ {
        (0..self.labels.len() as u32).map(OptionId)
    }

    /// The name of an item.
    pub fn item_name(&self, item: ItemId) -> &str {
        self.names.get(item.index())
    }

    /// Whether an item is primary or secondary.
    pub fn item_kind(&self, item: ItemId) -> ItemKind {
        self.items[item.index()].kind
    }

    /// How many options hold an item.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a b\na b\nb\n")?;
    /// assert_eq!(p.item_len(p.item_by_name("b").unwrap()), 2);
    /// assert_eq!((p.widest_item(), p.longest_option()), (2, 2));
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn item_len(&self, item: ItemId) -> usize {
        self.items[item.index()].options as usize
    }

    /// The most options any item has (0 without options).
    pub fn widest_item(&self) -> usize {
        self.items
            .iter()
            .map(|i| i.options as usize)
            .max()
            .unwrap_or(0)
    }

    /// The most items any option has (0 without options).
    pub fn longest_option(&self) -> usize {
        self.starts
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Multiplicity bounds `(min, max)` of an item: how many chosen options must
    /// contain it. `(1, 1)` for ordinary primary items, `(0, 1)` for secondary ones.
    pub fn item_bounds(&self, item: ItemId) -> (u32, u32) {
        self.items[item.index()].bounds
    }

    /// True when some primary item has bounds other than `(1, 1)`.
    pub fn has_multiplicities(&self) -> bool {
        self.items
            .iter()
            .any(|i| i.kind == ItemKind::Primary && i.bounds != (1, 1))
    }

    /// True when some option gives a color to a secondary item.
    pub fn has_colors(&self) -> bool {
        self.colors.len() > 1
    }

    /// True when some option has a non-zero cost.
    pub fn has_costs(&self) -> bool {
        self.costs.iter().any(|&c| c != 0)
    }

    /// Looks an item up by name.
    pub fn item_by_name(&self, name: &str) -> Option<ItemId> {
        (0..self.items.len())
            .find(|&i| self.names.get(i) == name)
            .map(|i| ItemId(i as u32))
    }

    /// The name of a color (`""` for [`ColorId::NONE`]).
    pub fn color_name(&self, color: ColorId) -> &str {
        &self.colors[color.0 as usize]
    }

    /// Number of distinct colors (not counting "no color").
    pub fn num_colors(&self) -> usize {
        self.colors.len() - 1
    }

    /// The entries of an option, in the order they were given.
    pub fn option(&self, option: OptionId) -> &[Entry] {
        let i = option.index();
        &self.entries[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The label of an option.
    pub fn label(&self, option: OptionId) -> &L {
        &self.labels[option.index()]
    }

    /// All labels, indexed by option.
    pub fn labels(&self) -> &[L] {
        &self.labels
    }

    /// The cost of an option (0 unless costs were given).
    pub fn cost(&self, option: OptionId) -> u64 {
        self.costs[option.index()]
    }

    /// Remarks made while building (such as dropped options).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The same problem with each option's cost set to `f(option, label)`.
    ///
    /// ```
    /// let p = exactly::Problem::from_names(&["a"], &[], [(3u64, vec!["a"])])?;
    /// let p = p.with_costs(|_, &label| label * 2);
    /// assert_eq!(p.cost(exactly::OptionId::new(0)), 6);
    /// # Ok::<(), exactly::BuildError>(())
    /// ```
    pub fn with_costs(mut self, mut f: impl FnMut(OptionId, &L) -> u64) -> Problem<L> {
        for (k, label) in self.labels.iter().enumerate() {
            self.costs[k] = f(OptionId(k as u32), label);
        }
        self
    }

    /// The same problem with labels mapped through `f`.
    pub fn map_labels<M>(self, f: impl FnMut(L) -> M) -> Problem<M> {
        Problem {
            items: self.items,
            names: self.names,
            colors: self.colors,
            starts: self.starts,
            entries: self.entries,
            labels: self.labels.into_iter().map(f).collect(),
            costs: self.costs,
            warnings: self.warnings,
        }
    }

    /// Formats an option as Knuth's text: item names separated by blanks,
    /// colors as `name:color`.
    ///
    /// ```
    /// let p = exactly::Problem::<()>::from_names(&["a"], &["x"], [((), vec!["a", "x:red"])]).unwrap();
    /// assert_eq!(p.option_text(exactly::OptionId::new(0)), "a x:red");
    /// ```
    pub fn option_text(&self, option: OptionId) -> String {
        let mut s = String::new();
        for (k, e) in self.option(option).iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(self.item_name(e.item));
            if !e.color.is_none() {
                s.push(':');
                s.push_str(self.color_name(e.color));
            }
        }
        s
    }

    /// Builds a problem from item names and options given as lists of names
    /// (`"x:c"` gives secondary item `x` the color `c`).
    ///
    /// ```
    /// let p = exactly::Problem::from_names(
    ///     &["a", "b"],
    ///     &[],
    ///     [("first", vec!["a"]), ("second", vec!["b"])],
    /// )
    /// .unwrap();
    /// assert_eq!(p.num_options(), 2);
    /// ```
    pub fn from_names<S: AsRef<str>>(
        primary: &[&str],
        secondary: &[&str],
        options: impl IntoIterator<Item = (L, Vec<S>)>,
    ) -> Result<Problem<L>, BuildError> {
        let mut b = ProblemBuilder::new();
        for name in primary {
            b.primary(name)?;
        }
        for name in secondary {
            b.secondary(name)?;
        }
        for (label, names) in options {
            b.add_option_names(label, &names)?;
        }
        b.build()
    }
}

/// The hash [`ProblemBuilder`] files item names under.
fn name_hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

/// Checks that a name is a non-empty run of non-blank characters without `:` or `|`.
pub fn is_valid_name(name: &str) -> bool {
    if name.is_ascii() {
        return !name.is_empty()
            && !name
                .bytes()
                .any(|c| c.is_ascii_whitespace() || c == b':' || c == b'|');
    }
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c == ':' || c == '|')
}

/// Builds a [`Problem`], validating items and options as they are added.
///
/// ```
/// use exactly::{ColorId, ProblemBuilder};
/// let mut b = ProblemBuilder::new();
/// let a = b.primary("a")?;
/// let x = b.secondary("x")?;
/// let red = b.color("red")?;
/// b.add_option("one", [(a, ColorId::NONE)])?;
/// b.add_option("two", [(x, red)])?; // no primary item: dropped with a warning
/// let p = b.build()?;
/// assert_eq!(p.num_options(), 1);
/// assert_eq!(p.warnings().len(), 1);
/// # Ok::<(), exactly::BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ProblemBuilder<L = String> {
    items: Vec<ItemInfo>,
    names: Names,
    /// The items, found by the hash of their names (which `items` holds).
    /// PERF: one allocation per item and a fast hash, not a
    /// `HashMap<String, _>` (DESIGN.md, "Measurements", code-level choices).
    by_name: HashTable<ItemId>,
    colors: Vec<String>,
    color_by_name: HashMap<String, ColorId>,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    labels: Vec<L>,
    costs: Vec<u64>,
    warnings: Vec<Warning>,
    /// Options accepted or dropped so far.
    added: usize,
    /// Calls to `add_option`, successful or not: tags `seen` marks.
    attempts: u32,
    /// Per item: the attempt that last used it (finds repeated items).
    seen: Vec<u32>,
}

impl<L> Default for ProblemBuilder<L> {
    fn default() -> Self {
        ProblemBuilder::new()
    }
}

impl<L> ProblemBuilder<L> {
    /// An empty builder.
    pub fn new() -> Self {
        ProblemBuilder {
            items: Vec::new(),
            names: Names::default(),
            by_name: HashTable::new(),
            colors: vec![String::new()],
            color_by_name: HashMap::new(),
            starts: vec![0],
            entries: Vec::new(),
            labels: Vec::new(),
            costs: Vec::new(),
            warnings: Vec::new(),
            added: 0,
            attempts: 0,
            seen: Vec::new(),
        }
    }

    /// Makes room for `items` more items, `options` more options and
    /// `entries` more entries, for callers that know the sizes up front.
    ///
    /// ```
    /// let mut b = exactly::ProblemBuilder::<()>::new();
    /// b.reserve(2, 1, 2);
    /// let (x, y) = (b.primary("x")?, b.primary("y")?);
    /// b.add_option((), [x, y].map(|i| (i, exactly::ColorId::NONE)))?;
    /// assert_eq!(b.build()?.num_entries(), 2);
    /// # Ok::<(), exactly::BuildError>(())
    /// ```
    pub fn reserve(&mut self, items: usize, options: usize, entries: usize) {
        self.items.reserve(items);
        self.names.ends.reserve(items);
        self.seen.reserve(items);
        let names = &self.names;
        self.by_name
            .reserve(items, |&i| name_hash(names.get(i.index())));
        self.starts.reserve(options);
        self.labels.reserve(options);
        self.costs.reserve(options);
        self.entries.reserve(entries);
    }

    fn add_item(&mut self, name: &str, kind: ItemKind) -> Result<ItemId, BuildError> {
        if !is_valid_name(name) {
            return Err(BuildError::BadItemName(name.to_string()));
        }
        let hash = name_hash(name);
        if self.item_hashed(hash, name).is_some() {
            return Err(BuildError::DuplicateItem(name.to_string()));
        }
        if !fits_indices(self.items.len() + 1, self.entries.len(), self.labels.len()) {
            return Err(BuildError::TooLarge);
        }
        let id = ItemId(u32::try_from(self.items.len()).map_err(|_| BuildError::TooLarge)?);
        let bounds = match kind {
            ItemKind::Primary => (1, 1),
            ItemKind::Secondary => (0, 1),
        };
        self.names.push(name)?;
        self.items.push(ItemInfo {
            kind,
            bounds,
            options: 0,
        });
        let names = &self.names;
        self.by_name
            .insert_unique(hash, id, |&i| name_hash(names.get(i.index())));
        self.seen.push(0);
        Ok(id)
    }

    /// Declares a primary item (covered exactly once).
    pub fn primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, ItemKind::Primary)
    }

    /// Declares a primary item that must be covered between `min` and `max`
    /// times (Knuth's multiplicities, `min:max|name` in the DLX format).
    ///
    /// [`Solver`](crate::Solver) searches exact covers only: for a problem whose
    /// [`has_multiplicities`](Problem::has_multiplicities) is true use
    /// [`MultiSolver`](crate::multi::MultiSolver), which honours the bounds.
    ///
    /// ```
    /// let mut b = exactly::ProblemBuilder::<()>::new();
    /// let a = b.primary_with_bounds("a", 0, 2)?;
    /// assert!(b.primary_with_bounds("b", 3, 2).is_err());
    /// let p = b.build()?;
    /// assert_eq!(p.item_bounds(a), (0, 2));
    /// assert!(p.has_multiplicities());
    /// # Ok::<(), exactly::BuildError>(())
    /// ```
    pub fn primary_with_bounds(
        &mut self,
        name: &str,
        min: u32,
        max: u32,
    ) -> Result<ItemId, BuildError> {
        if min > max || max == 0 {
            return Err(BuildError::BadBounds {
                name: name.to_string(),
                min,
                max,
            });
        }
        let id = self.add_item(name, ItemKind::Primary)?;
        self.items[id.index()].bounds = (min, max);
        Ok(id)
    }

    /// Declares a secondary item (covered at most once, or by options that agree
    /// on its color).
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, ItemKind::Secondary)
    }

    /// Looks up a declared item by name.
    pub fn item(&self, name: &str) -> Option<ItemId> {
        self.item_hashed(name_hash(name), name)
    }

    fn item_hashed(&self, hash: u64, name: &str) -> Option<ItemId> {
        let names = &self.names;
        self.by_name
            .find(hash, |&i| names.get(i.index()) == name)
            .copied()
    }

    /// The name of a declared item.
    pub fn item_name(&self, item: ItemId) -> &str {
        self.names.get(item.index())
    }

    /// The kind of a declared item.
    pub fn item_kind(&self, item: ItemId) -> ItemKind {
        self.items[item.index()].kind
    }

    /// Number of items declared so far.
    pub fn num_items(&self) -> usize {
        self.items.len()
    }

    /// Interns a color name.
    pub fn color(&mut self, name: &str) -> Result<ColorId, BuildError> {
        if let Some(&c) = self.color_by_name.get(name) {
            return Ok(c);
        }
        if !is_valid_name(name) {
            return Err(BuildError::BadColorName(name.to_string()));
        }
        let id = ColorId(
            i32::try_from(self.colors.len())
                .and_then(u32::try_from)
                .map_err(|_| BuildError::TooLarge)?,
        );
        self.colors.push(name.to_string());
        self.color_by_name.insert(name.to_string(), id);
        Ok(id)
    }

    /// Adds an option with cost 0. Returns `Ok(Some(id))`, or `Ok(None)` when the
    /// option has no primary item and was dropped (a [`Warning`] is recorded).
    pub fn add_option(
        &mut self,
        label: L,
        entries: impl IntoIterator<Item = (ItemId, ColorId)>,
    ) -> Result<Option<OptionId>, BuildError> {
        self.add_option_with_cost(label, 0, entries)
    }

    /// Adds an option that carries a cost (Knuth's DLX5 `|n` tokens).
    pub fn add_option_with_cost(
        &mut self,
        label: L,
        cost: u64,
        entries: impl IntoIterator<Item = (ItemId, ColorId)>,
    ) -> Result<Option<OptionId>, BuildError> {
        let position = self.added;
        self.attempts = self.attempts.wrapping_add(1);
        let tag = self.attempts;
        let start = self.entries.len();
        let mut has_primary = false;
        for (item, color) in entries {
            let result = self.check_entry(item, color, tag);
            if let Err(e) = result {
                self.entries.truncate(start);
                return Err(e);
            }
            has_primary |= self.items[item.index()].kind == ItemKind::Primary;
            self.entries.push(Entry { item, color });
        }
        self.added += 1;
        if !has_primary {
            self.entries.truncate(start);
            self.warnings
                .push(Warning::OptionWithoutPrimary { position, at: None });
            return Ok(None);
        }
        if !fits_indices(self.items.len(), self.entries.len(), self.labels.len() + 1) {
            self.entries.truncate(start);
            return Err(BuildError::TooLarge);
        }
        let end = u32::try_from(self.entries.len()).map_err(|_| BuildError::TooLarge)?;
        let id = OptionId(u32::try_from(self.labels.len()).map_err(|_| BuildError::TooLarge)?);
        for e in &self.entries[start..] {
            self.items[e.item.index()].options += 1;
        }
        self.starts.push(end);
        self.labels.push(label);
        self.costs.push(cost);
        Ok(Some(id))
    }

    /// Gives the warning just recorded (an option dropped by the last
    /// [`add_option`](Self::add_option)) the place in the text where the
    /// option starts, as a 1-based line and column.
    pub(crate) fn place_last_warning(&mut self, at: (usize, usize)) {
        if let Some(Warning::OptionWithoutPrimary { at: place, .. }) = self.warnings.last_mut() {
            *place = Some(at);
        }
    }

    fn check_entry(&mut self, item: ItemId, color: ColorId, tag: u32) -> Result<(), BuildError> {
        let info = self
            .items
            .get(item.index())
            .ok_or_else(|| BuildError::UnknownItem(format!("#{}", item.0)))?;
        if color.0 as usize >= self.colors.len() {
            return Err(BuildError::BadColorName(format!("#{}", color.0)));
        }
        if !color.is_none() && info.kind == ItemKind::Primary {
            return Err(BuildError::ColorOnPrimary(
                self.names.get(item.index()).to_string(),
            ));
        }
        if self.seen[item.index()] == tag {
            return Err(BuildError::RepeatedItem(
                self.names.get(item.index()).to_string(),
            ));
        }
        self.seen[item.index()] = tag;
        Ok(())
    }

    /// Adds an option given as item names; `"x:c"` gives item `x` color `c`.
    pub fn add_option_names<S: AsRef<str>>(
        &mut self,
        label: L,
        names: &[S],
    ) -> Result<Option<OptionId>, BuildError> {
        let entries = self.resolve_names(names)?;
        self.add_option(label, entries)
    }

    /// Resolves `name` / `name:color` strings to entries.
    pub fn resolve_names<S: AsRef<str>>(
        &mut self,
        names: &[S],
    ) -> Result<Vec<(ItemId, ColorId)>, BuildError> {
        let mut entries = Vec::with_capacity(names.len());
        for n in names {
            let n = n.as_ref();
            let (name, color) = match n.split_once(':') {
                Some((name, color)) => (name, Some(color)),
                None => (n, None),
            };
            let item = self
                .item(name)
                .ok_or_else(|| BuildError::UnknownItem(name.to_string()))?;
            let color = match color {
                Some(c) => self.color(c)?,
                None => ColorId::NONE,
            };
            entries.push((item, color));
        }
        Ok(entries)
    }

    /// Validates and returns the problem.
    pub fn build(self) -> Result<Problem<L>, BuildError> {
        if self.items.is_empty() {
            return Err(BuildError::NoItems);
        }
        Ok(Problem {
            items: self.items,
            names: self.names,
            colors: self.colors,
            starts: self.starts,
            entries: self.entries,
            labels: self.labels,
            costs: self.costs,
            warnings: self.warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_fit_in_32_bits_together() {
        assert!(fits_indices(1 << 20, 1 << 30, 1 << 28));
        assert!(fits_indices(1, u32::MAX as usize - 4, 1));
        // Each count fits in 32 bits, but together they do not.
        assert!(!fits_indices(1 << 31, 1 << 31, 1));
        assert!(!fits_indices(1, u32::MAX as usize - 3, 1));
        // Links number options in an `i32`.
        assert!(!fits_indices(1, 1, 1 << 31));
    }

    #[test]
    fn builder_rejects_bad_input() {
        let mut b = ProblemBuilder::<()>::new();
        let a = b.primary("a").unwrap();
        let x = b.secondary("x").unwrap();
        assert_eq!(b.primary("a"), Err(BuildError::DuplicateItem("a".into())));
        assert!(matches!(b.primary("a b"), Err(BuildError::BadItemName(_))));
        assert!(matches!(b.primary("a:b"), Err(BuildError::BadItemName(_))));
        assert!(matches!(b.primary(""), Err(BuildError::BadItemName(_))));
        let red = b.color("red").unwrap();
        assert_eq!(
            b.add_option((), [(a, red)]),
            Err(BuildError::ColorOnPrimary("a".into()))
        );
        assert_eq!(
            b.add_option((), [(a, ColorId::NONE), (a, ColorId::NONE)]),
            Err(BuildError::RepeatedItem("a".into()))
        );
        assert_eq!(
            b.add_option_names((), &["a", "zz"]),
            Err(BuildError::UnknownItem("zz".into()))
        );
        assert_eq!(b.add_option((), [(x, red)]), Ok(None));
        assert_eq!(
            b.add_option((), [(a, ColorId::NONE), (x, red)]),
            Ok(Some(OptionId(0)))
        );
        let p = b.build().unwrap();
        assert_eq!(p.num_options(), 1);
        assert_eq!(
            p.warnings(),
            &[Warning::OptionWithoutPrimary {
                position: 0,
                at: None
            }]
        );
        assert_eq!(p.option_text(OptionId(0)), "a x:red");
        // Only the option that was kept counts.
        assert_eq!((p.item_len(a), p.item_len(x)), (1, 1));
        assert_eq!(
            ProblemBuilder::<()>::new().build().unwrap_err(),
            BuildError::NoItems
        );
    }

    #[test]
    fn repeated_item_check_resets_between_options() {
        let mut b = ProblemBuilder::<u8>::new();
        b.primary("a").unwrap();
        b.primary("b").unwrap();
        b.add_option_names(1, &["a", "b"]).unwrap();
        b.add_option_names(2, &["b", "a"]).unwrap();
        let p = b.build().unwrap();
        assert_eq!(p.num_options(), 2);
        assert_eq!(p.num_primary(), 2);
    }
}
