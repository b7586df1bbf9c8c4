//! Operations counted by script and by line: how much of a run's work each script of the
//! data does, and each line of the data files, in the compiled engine's operations (the
//! same count the `operations` limit reads). Off unless a host turns it on for its thread
//! ([`start`]); `gloam sim --profile` reports it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::source::{LineMap, ScriptSource};

/// One script's share of a profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScriptCost {
    /// Runs of it that finished (a run stopped at a choice and carried on counts once).
    pub runs: u64,
    /// The operations those runs counted.
    pub operations: u64,
}

/// One line's share of a profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LineCost {
    /// The operations counted on the line.
    pub operations: u64,
    /// The line's text, without its indentation.
    pub text: String,
}

/// Operations by script label (`step reaction_step`, a card's condition...), for the runs
/// of the compiled engine that finished on one thread between [`start`] and [`finish`]. A
/// card's condition read during another script's run is counted as its own script.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Each script's runs and operations, by label.
    pub scripts: BTreeMap<String, ScriptCost>,
    /// The same operations by line of the data files: by file name, then by line (from
    /// 1). An operation counts on the line of the script text it runs (a function a
    /// script defines counts on its own lines); one Rhai counts without a place (an entry
    /// of a map, a part of a chain) counts on the line counted before it.
    pub lines: BTreeMap<String, BTreeMap<u32, LineCost>>,
}

impl Profile {
    /// Adds another profile's counts to these.
    pub fn merge(&mut self, other: Profile) {
        for (label, cost) in other.scripts {
            let entry = self.scripts.entry(label).or_default();
            entry.runs = entry.runs.saturating_add(cost.runs);
            entry.operations = entry.operations.saturating_add(cost.operations);
        }
        for (file, lines) in other.lines {
            let file = self.lines.entry(file).or_default();
            for (line, cost) in lines {
                let entry = file.entry(line).or_insert_with(|| LineCost {
                    operations: 0,
                    text: cost.text,
                });
                entry.operations = entry.operations.saturating_add(cost.operations);
            }
        }
    }

    /// The lines, most operations first (then by file and line): `(file, line, cost)`.
    pub fn by_line(&self) -> Vec<(&str, u32, &LineCost)> {
        let mut list: Vec<(&str, u32, &LineCost)> = self
            .lines
            .iter()
            .flat_map(|(file, lines)| {
                lines
                    .iter()
                    .map(move |(line, cost)| (file.as_str(), *line, cost))
            })
            .collect();
        list.sort_by(|a, b| {
            b.2.operations
                .cmp(&a.2.operations)
                .then(a.0.cmp(b.0))
                .then(a.1.cmp(&b.1))
        });
        list
    }

    /// Every script's operations together.
    pub fn operations(&self) -> u64 {
        self.scripts
            .values()
            .fold(0u64, |sum, cost| sum.saturating_add(cost.operations))
    }

    /// The scripts, most operations first (then by label).
    pub fn by_cost(&self) -> Vec<(&str, ScriptCost)> {
        let mut list: Vec<(&str, ScriptCost)> = self
            .scripts
            .iter()
            .map(|(label, cost)| (label.as_str(), *cost))
            .collect();
        list.sort_by(|a, b| b.1.operations.cmp(&a.1.operations).then(a.0.cmp(b.0)));
        list
    }
}

/// A profile being taken on one thread.
#[derive(Default)]
struct Taking {
    scripts: BTreeMap<Arc<str>, ScriptCost>,
    /// By file name: the file's text, and the operations by the byte offset of the line
    /// they were counted on (turned into line numbers once, by [`finish`]).
    lines: BTreeMap<String, (Arc<str>, BTreeMap<usize, u64>)>,
}

thread_local! {
    /// The counts of this thread, while a profile is being taken.
    static COUNTS: RefCell<Option<Taking>> = const { RefCell::new(None) };
}

/// Starts counting on this thread (from zero, dropping counts not yet taken).
pub fn start() {
    COUNTS.with(|counts| *counts.borrow_mut() = Some(Taking::default()));
}

/// Whether a profile is being taken on this thread (a run then counts by line too).
pub(crate) fn active() -> bool {
    COUNTS
        .try_with(|counts| counts.try_borrow().is_ok_and(|counts| counts.is_some()))
        .unwrap_or(false)
}

/// Stops counting on this thread and returns what was counted (empty if nothing was
/// started).
pub fn finish() -> Profile {
    let taking = COUNTS
        .with(|counts| counts.borrow_mut().take())
        .unwrap_or_default();
    let lines = taking
        .lines
        .into_iter()
        .map(|(file, (text, by_offset))| (file, numbered(&text, by_offset)))
        .collect();
    Profile {
        scripts: taking
            .scripts
            .into_iter()
            .map(|(label, cost)| (label.to_string(), cost))
            .collect(),
        lines,
    }
}

/// The line number and text of each line start, in one pass over the file.
fn numbered(text: &str, by_offset: BTreeMap<usize, u64>) -> BTreeMap<u32, LineCost> {
    let mut lines = BTreeMap::new();
    let mut number = 1u32;
    let mut counted_to = 0;
    for (offset, operations) in by_offset {
        let offset = offset.min(text.len());
        let before = text.get(counted_to..offset).unwrap_or("");
        number = number.saturating_add(before.matches('\n').count() as u32);
        counted_to = offset;
        let line_start = text
            .get(..offset)
            .and_then(|head| head.rfind('\n'))
            .map_or(0, |newline| newline + 1);
        let line_end = text
            .get(offset..)
            .and_then(|tail| tail.find('\n'))
            .map_or(text.len(), |newline| offset + newline);
        let entry: &mut LineCost = lines.entry(number).or_default();
        entry.operations = entry.operations.saturating_add(operations);
        if entry.text.is_empty() {
            entry.text = text
                .get(line_start..line_end)
                .unwrap_or("")
                .trim()
                .to_owned();
        }
    }
    lines
}

/// Counts one finished run of the script `label`, and its operations by line of its
/// script (`source`, whose lines `map` locates in the file), when it counted them.
pub(crate) fn record(
    label: &Arc<str>,
    operations: u64,
    lines: Option<(&ScriptSource, &LineMap, &[u64])>,
) {
    let _ = COUNTS.try_with(|counts| {
        if let Ok(mut counts) = counts.try_borrow_mut() {
            if let Some(counts) = counts.as_mut() {
                let cost = counts.scripts.entry(label.clone()).or_default();
                cost.runs = cost.runs.saturating_add(1);
                cost.operations = cost.operations.saturating_add(operations);
                if let Some((source, map, by_line)) = lines {
                    add_lines(counts, source, map, by_line);
                }
            }
        }
    });
}

fn add_lines(taking: &mut Taking, source: &ScriptSource, map: &LineMap, by_line: &[u64]) {
    if !by_line.iter().any(|&operations| operations > 0) {
        return;
    }
    if !taking.lines.contains_key(&source.file_name) {
        taking.lines.insert(
            source.file_name.clone(),
            (source.file_text.clone(), BTreeMap::new()),
        );
    }
    let Some((_, by_offset)) = taking.lines.get_mut(&source.file_name) else {
        return;
    };
    for (line, &operations) in by_line.iter().enumerate() {
        if operations == 0 {
            continue;
        }
        // Operations before any line count on the script's first.
        let offset = map.line_start(line.max(1));
        let entry = by_offset.entry(offset).or_insert(0);
        *entry = entry.saturating_add(operations);
    }
}
