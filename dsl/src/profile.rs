//! Operations counted by script: how much of a run's work each script of the data does, in
//! the compiled engine's operations (the same count the `operations` limit reads). Off
//! unless a host turns it on for its thread ([`start`]); `gloam sim --profile` reports it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

/// One script's share of a profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScriptCost {
    /// Runs of it that finished (a run stopped at a choice and carried on counts once).
    pub runs: u64,
    /// The operations those runs counted.
    pub operations: u64,
}

/// Operations by script label (`step reaction_step`, a card's condition...), for the runs
/// of the compiled engine that finished on one thread between [`start`] and [`finish`]. A
/// card's condition read during another script's run is counted as its own script.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Each script's runs and operations, by label.
    pub scripts: BTreeMap<String, ScriptCost>,
}

impl Profile {
    /// Adds another profile's counts to these.
    pub fn merge(&mut self, other: Profile) {
        for (label, cost) in other.scripts {
            let entry = self.scripts.entry(label).or_default();
            entry.runs = entry.runs.saturating_add(cost.runs);
            entry.operations = entry.operations.saturating_add(cost.operations);
        }
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

thread_local! {
    /// The counts of this thread, while a profile is being taken.
    static COUNTS: RefCell<Option<BTreeMap<Arc<str>, ScriptCost>>> = const { RefCell::new(None) };
}

/// Starts counting on this thread (from zero, dropping counts not yet taken).
pub fn start() {
    COUNTS.with(|counts| *counts.borrow_mut() = Some(BTreeMap::new()));
}

/// Stops counting on this thread and returns what was counted (empty if nothing was
/// started).
pub fn finish() -> Profile {
    let counts = COUNTS.with(|counts| counts.borrow_mut().take());
    Profile {
        scripts: counts
            .unwrap_or_default()
            .into_iter()
            .map(|(label, cost)| (label.to_string(), cost))
            .collect(),
    }
}

/// Counts one finished run of the script `label`.
pub(crate) fn record(label: &Arc<str>, operations: u64) {
    let _ = COUNTS.try_with(|counts| {
        if let Ok(mut counts) = counts.try_borrow_mut() {
            if let Some(counts) = counts.as_mut() {
                let cost = counts.entry(label.clone()).or_default();
                cost.runs = cost.runs.saturating_add(1);
                cost.operations = cost.operations.saturating_add(operations);
            }
        }
    });
}
